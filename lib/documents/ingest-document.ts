// A document's processing, run as a durable job (lib/jobs/queue.ts): fetch (a URL), extract its text with its
// structure, and store its passages as memories of its namespace, each with its page and section. A run a
// crash cut short is run again from the start (the job is queued again at the next start, its half-written
// remember rolled back by its write intent), and whatever an earlier run stored is replaced, so any number of
// runs leave one copy of the passages.
import type { DocumentPrincipal } from "@/lib/auth/principal";
import { setting } from "@/lib/config";
import { db } from "@/lib/db";
import { PermanentJobError, type ClaimedJob, type JobRunner } from "@/lib/jobs/queue";
import { remember } from "@/lib/memory/write/remember";
import { crashPoint } from "@/lib/http/request-writes";
import { fetchOutbound, FetchRefusedError } from "@/lib/net/fetch-outbound";
import { OutboundUrlError } from "@/lib/net/outbound";
import { unsupported } from "./create-document";
import { DOCUMENT_FIELDS, type DocumentRow } from "./document-json";
import { deleteDocumentPassages, deleteOrphanedPassages, passageIds } from "./delete-document-passages";
import { detectContentType, DocumentUnreadableError, notTextReason, type ExtractedDocument } from "./extract";
import { extractInWorker } from "./extract/isolated";
import { DOCUMENT_JOB_KIND } from "@/lib/documents/ingestion-job";
import { originalBytes, originalVersion, replaceOriginal } from "@/lib/documents/document-originals";
import { passagesOf, sectionLabel } from "./passages";

/** How long reading one document may take (OCR of its scanned pages included). */
const EXTRACTION_TIMEOUT_MS = 15 * 60_000;

/** The job runners of this area, for the worker (lib/startup.ts) and for tests (runDueJobs). */
export const documentJobRunners: Record<string, JobRunner> = {
  [DOCUMENT_JOB_KIND]: Object.assign((job: ClaimedJob) => runIngestion(job), {
    exhausted: (job: ClaimedJob) =>
      setDocument(
        { id: String(job.payload.documentId), orgId: job.orgId ?? "" },
        {
          status: "failed",
          error: "Reading this document stopped the server each time it was tried; it is not read again.",
          processedAt: new Date(),
        },
      ).then(() => undefined),
  }),
};

async function runIngestion(job: ClaimedJob): Promise<void> {
  const prisma = await db();
  const document = await prisma.document.findFirst({
    where: { id: String(job.payload.documentId), ...(job.orgId && { orgId: job.orgId }) },
    select: DOCUMENT_FIELDS,
  });
  if (!document) {
    // Deleted: passages a run stored before the process died are deleted too.
    if (job.orgId) await deleteOrphanedPassages(job.orgId, String(job.payload.documentId));
    return;
  }
  await setDocument(document, { status: "processing", error: null });
  // Read again after saying "processing": a refresh that loses to another (replaceOriginal's false) leaves the
  // status to the winner, whose switch then comes after this read, so its final status after this "processing".
  const current = await prisma.document.findFirst({
    where: { id: document.id, orgId: document.orgId },
    select: DOCUMENT_FIELDS,
  });
  if (!current) return deleteOrphanedPassages(document.orgId, document.id);
  try {
    await ingest(current, job.payload.refetch === true);
  } catch (error) {
    // Only sentences written for users reach the document's error; anything else is logged here, and the
    // document says what happened in general terms.
    if (isTheDocumentsOwn(error)) {
      await setDocument(document, { status: "failed", error: error.message.slice(0, 1000), processedAt: new Date() });
      throw new PermanentJobError(error.message);
    }
    if (job.attempts >= job.maxAttempts) {
      console.error(`[memgw] processing document ${document.id} failed (attempt ${job.attempts}, the last):`, error);
      await setDocument(document, { status: "failed", error: GAVE_UP, processedAt: new Date() });
      throw new PermanentJobError(GAVE_UP);
    }
    console.error(`[memgw] processing document ${document.id} failed (it is tried again):`, error);
    await setDocument(document, { status: "queued", error: WILL_RETRY });
    throw error;
  }
}

const WILL_RETRY = "Processing failed for a reason on our side and will be tried again shortly.";
const GAVE_UP = "Processing failed for a reason on our side each time it was tried; refresh the document to try again.";
const READER_FAILED =
  "The document could not be read: its content is damaged or uses something the reader does not support.";

/**
 * A failure that trying again cannot mend, because it comes from the document itself (its content, its URL),
 * with a message written for the user: the document fails at once.
 */
function isTheDocumentsOwn(error: unknown): error is Error {
  return (
    error instanceof DocumentUnreadableError ||
    error instanceof FetchRefusedError ||
    error instanceof OutboundUrlError ||
    error instanceof UnreadableTypeError
  );
}

/**
 * extractInWorker, with any failure of the reader made a DocumentUnreadableError: reading is a function of the
 * bytes alone, so a reader that throws on them (a library's TypeError on a degenerate file) throws again at
 * every try. Its own message is for the server's log only. A reading process that could not even start (the
 * machine's resources) is the one failure that may pass, and is retried.
 */
async function extract(document: DocumentRow, ...input: Parameters<typeof extractInWorker>) {
  try {
    return await extractInWorker(...input);
  } catch (error) {
    if (error instanceof DocumentUnreadableError) throw error;
    if (couldNotStart(error)) throw error;
    console.error(`[memgw] reading document ${document.id} (${input[1]}) failed unexpectedly:`, error);
    throw new DocumentUnreadableError(READER_FAILED, { cause: error });
  }
}

/** The reading process could not be started (fork's error: EAGAIN, ENOMEM…): the machine's, not the document's. */
function couldNotStart(error: unknown): boolean {
  return (error as { syscall?: string }).syscall?.startsWith("spawn") ?? false;
}

class UnreadableTypeError extends Error {}

async function ingest(document: DocumentRow, refetch: boolean) {
  const original = await originalOf(document, refetch);
  // Another refresh of this document switched it to its own answer first: that run reads and stores it, and
  // says how it went. This one's answer was never stored, so it is not read either, and nothing here failed.
  if (!original) return;
  const { bytes, contentType } = original;
  const extracted = await extract(
    document,
    bytes,
    contentType,
    {
      maxPages: setting("DOCUMENT_MAX_PAGES"),
      maxOcrPages: setting("DOCUMENT_MAX_OCR_PAGES"),
      timeoutMs: EXTRACTION_TIMEOUT_MS,
    },
    { baseUrl: document.sourceUrl ?? undefined },
  );
  const passages = passagesOf(extracted.blocks);
  if (passages.length === 0) throw new DocumentUnreadableError("No text was found in the document.");
  // A file's own title is as long as one given to the API may be (it is repeated in every passage's metadata).
  const title = document.title ?? cutTitle(extracted.title) ?? document.filename;
  // What an earlier run stored (a refresh, or a run cut short) goes once the new passages are in: recall has
  // no gap meanwhile, a failed run leaves the old ones, and any number of runs leaves one copy.
  const earlier = await passageIds(document);
  crashPoint("document.before-passages");
  await remember(
    documentPrincipal(document),
    { namespace_id: document.namespaceId },
    passages.map((passage) => ({
      content: passage.content,
      metadata: {
        ...(document.metadata as Record<string, string | number | boolean | null>),
        document_id: document.id,
        document_title: title,
        source_url: document.sourceUrl,
        page: passage.page,
        section: sectionLabel(passage.section) || null,
      },
      identity_id: document.identityId ?? undefined,
    })),
    {},
    { allowDuplicate: true, documentId: document.id },
  );
  const finished = await setDocument(document, {
    status: "ready",
    error: null,
    title,
    pageCount: extracted.pageCount,
    chunkCount: passages.length,
    blocks: blocksJson(extracted),
    processedAt: new Date(),
  });
  await deleteDocumentPassages(document, earlier);
  // Deleted while it was processed: what this run stored goes too.
  if (finished === 0) await deleteDocumentPassages(document);
}

/**
 * The bytes to read and their type: the upload (read from its parts), or (first run or refresh) what the URL
 * answers now, which replaces the original's parts. Null when another refresh replaced it first.
 */
async function originalOf(document: DocumentRow, refetch: boolean) {
  if (document.contentType && !(refetch && document.sourceUrl)) {
    const bytes = await originalBytes(originalVersion(document));
    if (bytes) return { bytes, contentType: document.contentType };
  }
  if (!document.sourceUrl) throw new DocumentUnreadableError("The document has no content.");
  const fetched = await fetchOutbound(document.sourceUrl, {
    maxBytes: setting("DOCUMENT_MAX_BYTES"),
    timeoutMs: setting("DOCUMENT_FETCH_TIMEOUT_SECONDS") * 1000,
  });
  const path = new URL(fetched.finalUrl).pathname;
  const contentType = detectContentType(fetched.bytes, fetched.contentType, path);
  if (!contentType) {
    const notText = notTextReason(fetched.bytes, fetched.contentType, path);
    throw new UnreadableTypeError(unsupported(fetched.contentType, notText).message);
  }
  // Written beside the earlier answer, then switched to: a download under way reads one or the other, whole.
  const ref = { orgId: document.orgId, documentId: document.id };
  if (!(await replaceOriginal(ref, document.partsGeneration, fetched.bytes, contentType))) return null;
  return { bytes: fetched.bytes, contentType };
}

const TITLE_MAX_CHARS = 500;

function cutTitle(title: string | null): string | null {
  if (title === null || title.length <= TITLE_MAX_CHARS) return title;
  return `${title.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…`;
}

function blocksJson(extracted: ExtractedDocument) {
  return extracted.blocks.map(({ page, section, text }) => ({ page, section, text }));
}

/** Who writes a document's passages: its namespace only, with its scopes, queued as whoever gave it. */
function documentPrincipal(document: DocumentRow): DocumentPrincipal {
  return {
    kind: "document",
    orgId: document.orgId,
    documentId: document.id,
    namespaceId: document.namespaceId,
    requester: document.apiKeyId ?? (document.createdByUserId ? `user:${document.createdByUserId}` : document.id),
    permissions: ["NAMESPACE_WRITE"],
    scopes: document.scopes as Record<string, string>,
  };
}

type DocumentChange = {
  status: string;
  error: string | null;
  title?: string | null;
  pageCount?: number | null;
  chunkCount?: number;
  blocks?: ReturnType<typeof blocksJson>;
  processedAt?: Date;
};

async function setDocument(document: { id: string; orgId: string }, data: DocumentChange): Promise<number> {
  const prisma = await db();
  const { count } = await prisma.document.updateMany({ where: { id: document.id, orgId: document.orgId }, data });
  return count;
}
