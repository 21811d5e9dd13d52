import type { Prisma } from "@/lib/generated/prisma/client";
import type { DocumentJson, DocumentStatus } from "./schemas";

/** The columns a document's JSON shows: never its original bytes or extracted text (each has its own route). */
export const DOCUMENT_FIELDS = {
  id: true,
  orgId: true,
  namespaceId: true,
  status: true,
  title: true,
  contentType: true,
  sourceUrl: true,
  filename: true,
  byteSize: true,
  partsGeneration: true,
  pageCount: true,
  chunkCount: true,
  error: true,
  identityId: true,
  scopes: true,
  metadata: true,
  apiKeyId: true,
  createdByUserId: true,
  createdAt: true,
  updatedAt: true,
  processedAt: true,
} satisfies Prisma.DocumentSelect;

export type DocumentRow = Prisma.DocumentGetPayload<{ select: typeof DOCUMENT_FIELDS }>;

export function documentJson(document: DocumentRow): DocumentJson {
  return {
    id: document.id,
    namespace_id: document.namespaceId,
    status: document.status as DocumentStatus,
    title: document.title,
    content_type: document.contentType,
    source_url: document.sourceUrl,
    filename: document.filename,
    size_bytes: document.byteSize,
    pages: document.pageCount,
    chunk_count: document.chunkCount,
    error: document.error,
    identity_id: document.identityId,
    scopes: document.scopes as Record<string, string>,
    metadata: document.metadata as Record<string, unknown>,
    created_at: document.createdAt.toISOString(),
    updated_at: document.updatedAt.toISOString(),
    processed_at: document.processedAt?.toISOString() ?? null,
  };
}
