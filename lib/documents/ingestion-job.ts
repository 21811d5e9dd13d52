// The job that processes a document (lib/documents/ingest-document.ts runs it): here, below lib/documents, because
// an import (lib/portability/import.ts) queues it too.
import type { NewJob } from "@/lib/jobs/queue";

export const DOCUMENT_JOB_KIND = "document.ingest";

/** The job that processes a document: one queued or running at a time per document. */
export function ingestionJob(document: { id: string; orgId: string }): NewJob {
  return {
    kind: DOCUMENT_JOB_KIND,
    orgId: document.orgId,
    key: `document:${document.id}`,
    payload: { documentId: document.id },
    maxAttempts: 3,
  };
}
