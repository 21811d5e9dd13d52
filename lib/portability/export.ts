import type { Principal } from "@/lib/auth/principal";
import type { Scopes } from "@/lib/auth/scopes";
import { originalBytes, originalVersion, OriginalReplacedError } from "@/lib/documents/document-originals";
import { db } from "@/lib/db";
import { namespaceNotFound } from "@/lib/errors";
import { Prisma, type Namespace } from "@/lib/generated/prisma/client";
import { ItemStream } from "@/lib/http/ndjson";
import { getNamespace } from "@/lib/namespaces/namespaces";
import { embedder } from "@/lib/memory/embeddings";
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportLine } from "./export-format";
import { memoryVersions, versionJson } from "@/lib/memory/store/history";
import { memoryFilter } from "@/lib/memory/common/sql";
import type { SupersessionJson } from "@/lib/memory/common/validity-fields";

/**
 * Memories read per query: a page's rows (and its chunks' vectors, 512 numbers each, with include_vectors)
 * are all the export holds at a time, whatever the namespace's size.
 */
const PAGE_SIZE = 200;
const PAGE_SIZE_WITH_VECTORS = 25;

export interface ExportOptions {
  includeVectors: boolean;
}

/**
 * A namespace's memories as the lines of an export (lib/portability/export-format.ts): a namespace granted to the
 * principal (404 otherwise, before any line), and of a key with scopes only the memories and versions within
 * them. Lines are read a page at a time as they are consumed, each page in a statement of its own (no
 * transaction held while the client reads): a memory written during the export may or may not be in it,
 * an expired one never is.
 */
export async function exportNamespace(principal: Principal, namespaceId: string, options: ExportOptions) {
  const namespace = await getNamespace(principal, namespaceId);
  return new ItemStream(exportLines(namespace, principal.scopes, options), exportFilename(namespace));
}

/** The same for the operator (`npx memgw export`): any namespace, by id, every memory. */
export async function exportNamespaceForOperator(namespaceId: string, options: ExportOptions) {
  const namespace = await (await db()).namespace.findUnique({ where: { id: namespaceId } });
  if (!namespace) throw namespaceNotFound(`Namespace ${namespaceId}`);
  return new ItemStream(exportLines(namespace, {}, options), exportFilename(namespace));
}

function exportFilename(namespace: Namespace) {
  return `${namespace.id}.ndjson`;
}

interface MemoryRow {
  id: string;
  content: string;
  metadata: Record<string, unknown>;
  scopes: Record<string, string>;
  identity_id: string | null;
  session_id: string | null;
  session_position: number | null;
  role: string | null;
  occurred_at: Date;
  created_at: Date;
  updated_at: Date;
  expires_at: Date | null;
  version: number;
  embedding_model: string | null;
  valid_at: Date;
  invalid_at: Date | null;
  superseded_by: string | null;
  supersession: SupersessionJson;
  fact_key: string | null;
  kind: "memory" | "fact";
  derived_from: string[];
}

async function* exportLines(namespace: Namespace, scopes: Scopes, options: ExportOptions): AsyncGenerator<ExportLine> {
  // The first page is read before the header is produced: a failure to read it is still answered in the
  // envelope (the HTTP response starts with the first line).
  let page = await memoryPage(namespace, scopes, options);
  yield {
    type: "header",
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: new Date().toISOString(),
    namespace: {
      id: namespace.id,
      name: namespace.name,
      description: namespace.description,
      external_reference_id: namespace.externalReferenceId,
    },
    embedding_model: embedder().model,
    vectors: options.includeVectors,
    scopes,
  };
  yield* documentLines(namespace, scopes);
  while (page.length > 0) {
    yield* page;
    const last = page[page.length - 1];
    page = await memoryPage(namespace, scopes, options, {
      createdAt: last.created_at,
      sessionId: last.session_id,
      position: last.position,
      id: last.id,
    });
  }
}

/**
 * The namespace's documents within the scopes, one line each with its original, read one at a time
 * (an original may be 50 MB). Their passages are not memory lines: the import makes them again.
 */
async function* documentLines(namespace: Namespace, scopes: Scopes): AsyncGenerator<ExportLine> {
  const prisma = await db();
  const within = Object.entries(scopes).map(([name, value]) => ({ scopes: { path: [name], equals: value } }));
  const listed = await prisma.document.findMany({
    // Any document with its original, processed or not (a failed one, a URL being refreshed): backups keep it.
    where: { orgId: namespace.orgId, namespaceId: namespace.id, NOT: { byteSize: null }, AND: within },
    select: { id: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  for (const { id } of listed) {
    const read = await documentWithOriginal(namespace.orgId, id);
    if (!read) continue;
    const { document, contentType, original } = read;
    yield {
      type: "document",
      id: document.id,
      title: document.title,
      content_type: contentType,
      source_url: document.sourceUrl,
      filename: document.filename,
      metadata: document.metadata as Record<string, unknown>,
      scopes: document.scopes as Record<string, string>,
      identity_id: document.identityId,
      created_at: document.createdAt.toISOString(),
      original: Buffer.from(original).toString("base64"),
    };
  }
}

/**
 * A document and its original as it is now, or null once it has none (deleted, a URL not fetched). A URL's
 * refresh that replaces the original while it is read fails that read (OriginalReplacedError), or finds the
 * version just read gone: the document is read again, with the new original, once; a backup then has the newer
 * answer rather than failing midway or leaving the document out.
 */
async function documentWithOriginal(orgId: string, id: string) {
  const prisma = await db();
  for (let attempt = 1; ; attempt++) {
    const document = await prisma.document.findFirst({ where: { id, orgId } });
    if (!document?.contentType) return null;
    try {
      const original = await originalBytes(originalVersion(document));
      if (original) return { document, contentType: document.contentType, original };
      if (attempt > 1) return null;
    } catch (error) {
      if (!(error instanceof OriginalReplacedError) || attempt > 1) throw error;
    }
  }
}

/**
 * The memory lines of one page: those after `after` in the export's order, oldest first: created_at, then
 * (what one call stored shares its created_at) a conversation's turns by position, so that an import
 * replays them as they were said, then id. A memory without a session sorts as the session "" at
 * position -1, values no turn can have.
 */
async function memoryPage(
  namespace: Namespace,
  scopes: Scopes,
  options: ExportOptions,
  after?: { createdAt: string; sessionId: string | null; position: number | null; id: string },
): Promise<(ExportLine & { type: "memory" })[]> {
  const prisma = await db();
  const where = memoryFilter({ orgId: namespace.orgId, namespaceId: namespace.id, scopes }, "m");
  // The bound on created_at on its own, so the (namespace_id, created_at) index bounds the scan.
  const keyset = after
    ? Prisma.sql`AND m.created_at >= ${after.createdAt}::timestamptz
        AND (m.created_at > ${after.createdAt}::timestamptz
             OR (COALESCE(m.session_id, ''), COALESCE(m.session_position, -1), m.id)
                > (${after.sessionId ?? ""}, ${after.position ?? -1}::int, ${after.id}))`
    : Prisma.empty;
  // The model of a memory's chunks: one unless a re-embed is under way (null then: re-embedded on import).
  const rows = await prisma.$queryRaw<MemoryRow[]>(
    Prisma.sql`SELECT m.id, m.content, m.metadata, m.scopes, m.identity_id, m.session_id, m.session_position, m.role,
            m.occurred_at, m.created_at, m.updated_at, m.expires_at, m.version, m.valid_at, m.invalid_at,
            m.superseded_by, m.supersession, m.fact_key, m.kind, m.derived_from,
            (SELECT CASE WHEN count(DISTINCT c.embedding_model) = 1 THEN min(c.embedding_model) END
             FROM memory_chunks c WHERE c.memory_id = m.id AND c.org_id = m.org_id) AS embedding_model
     FROM memories m WHERE ${where} AND m.document_id IS NULL ${keyset}
     ORDER BY m.created_at, COALESCE(m.session_id, ''), COALESCE(m.session_position, -1), m.id
     LIMIT ${options.includeVectors ? PAGE_SIZE_WITH_VECTORS : PAGE_SIZE}`,
  );
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const versions = await memoryVersions(prisma, namespace.orgId, ids, scopes);
  const chunks = options.includeVectors ? await chunkVectors(namespace.orgId, ids) : undefined;
  return rows.map((row) => ({
    type: "memory" as const,
    id: row.id,
    content: row.content,
    metadata: row.metadata,
    scopes: row.scopes,
    identity_id: row.identity_id,
    session_id: row.session_id,
    position: row.session_position,
    role: row.role,
    occurred_at: row.occurred_at.toISOString(),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    valid_at: row.valid_at.toISOString(),
    invalid_at: row.invalid_at?.toISOString() ?? null,
    superseded_by: row.superseded_by,
    supersession: row.supersession,
    fact_key: row.fact_key,
    kind: row.kind,
    derived_from: row.derived_from,
    version: row.version,
    history: (versions.get(row.id) ?? []).map(versionJson),
    embedding_model: row.embedding_model,
    ...(chunks && { chunks: chunks.get(row.id) ?? [] }),
  }));
}

/** The chunks of these memories with their vectors, in order, by memory. */
async function chunkVectors(orgId: string, memoryIds: string[]) {
  const rows = await (
    await db()
  ).$queryRaw<{ memory_id: string; position: number; content: string; vector: string }[]>(
    Prisma.sql`SELECT memory_id, position, content, embedding::text AS vector FROM memory_chunks
     WHERE org_id = ${orgId} AND memory_id = ANY(${memoryIds}::text[]) ORDER BY memory_id, position`,
  );
  const byMemory = new Map<string, { position: number; content: string; vector: number[] }[]>();
  for (const row of rows) {
    const chunks = byMemory.get(row.memory_id) ?? [];
    // pgvector's text form, `[0.1,0.2,…]`, is a JSON array.
    chunks.push({ position: row.position, content: row.content, vector: JSON.parse(row.vector) });
    byMemory.set(row.memory_id, chunks);
  }
  return byMemory;
}
