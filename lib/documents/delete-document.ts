import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { cancelQueuedJob } from "@/lib/jobs/queue";
import { deleteDocumentPassages } from "./delete-document-passages";
import { getDocument } from "./get-document";
import { ingestionJob } from "@/lib/documents/ingestion-job";

/**
 * Deletes a document the principal may see, with its original, its extracted text and the memories of its
 * passages. A processing run under way notices (its document is gone) and deletes what it stored.
 */
export async function deleteDocument(principal: Principal, id: string, activity: ActivityNote = {}) {
  const document = await getDocument(principal, id, activity);
  await cancelQueuedJob(ingestionJob(document).key!);
  // The passages first: a crash in between leaves a document to delete again, never passages without one.
  const memoriesDeleted = await deleteDocumentPassages(document);
  const prisma = await db();
  await prisma.document.deleteMany({ where: { id: document.id, orgId: principal.orgId } });
  return { id: document.id, deleted: true as const, memories_deleted: memoriesDeleted };
}
