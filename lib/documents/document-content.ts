import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { ConflictError } from "@/lib/errors";
import { FileBody } from "@/lib/http/file-body";
import { takeTransferSlot } from "@/lib/http/transfer-slots";
import { hasOriginal, originalStream, originalVersion } from "@/lib/documents/document-originals";
import { getDocument } from "./get-document";

const EXTENSIONS: Record<string, string> = {
  "application/pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "text/html": "html",
  "text/markdown": "md",
  "text/plain": "txt",
  "image/png": "png",
  "image/jpeg": "jpg",
};

/**
 * A document's original bytes, as given or as its URL answered, for whoever may read the document: a stream
 * that reads it from the database a part at a time as the client takes it, in one of the organization's
 * transfer turns (lib/http/transfer-slots.ts: 429 or 503 with Retry-After when none comes free in time),
 * given back when the stream ends or is cancelled. The stream is the version the document has when asked: it
 * fails (the client sees the body cut short of its Content-Length) if a URL's refresh replaces it meanwhile.
 * 409 for a URL not fetched yet.
 */
export async function documentContent(principal: Principal, id: string, activity: ActivityNote = {}) {
  const document = await getDocument(principal, id, activity);
  // Pinned to the version the document has now: a URL's refresh meanwhile fails the stream, never mixes it.
  const version = originalVersion(document);
  if (document.byteSize === null || !document.contentType || !(await hasOriginal(version, version.generation))) {
    throw new ConflictError(`Document ${id}'s URL has not been fetched yet; try again once it is processed.`);
  }
  const release = await takeTransferSlot(principal.orgId);
  const filename = document.filename ?? `${document.id}.${EXTENSIONS[document.contentType] ?? "bin"}`;
  const stream = originalStream(version, release);
  return new FileBody({ stream, size: document.byteSize }, document.contentType, filename);
}
