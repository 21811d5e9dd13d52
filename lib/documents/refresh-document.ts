import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { ConflictError, InvalidError, notFound } from "@/lib/errors";
import { enqueueJob, wakeJobWorkers } from "@/lib/jobs/queue";
import { DOCUMENT_FIELDS } from "./document-json";
import { getDocument } from "./get-document";
import { ingestionJob } from "@/lib/documents/ingestion-job";

/** Fetches a URL's document again and replaces its passages with what it says now. */
export async function refreshDocument(principal: Principal, id: string, activity: ActivityNote = {}) {
  const document = await getDocument(principal, id, activity);
  if (!document.sourceUrl)
    throw new InvalidError(`Document ${id} was uploaded, not fetched from a URL: upload it again.`);
  const prisma = await db();
  const refreshed = await prisma.$transaction(async (tx) => {
    const job = ingestionJob(document);
    const queued = await enqueueJob({ ...job, payload: { ...job.payload, refetch: true } }, tx);
    if (!queued) throw new ConflictError(`Document ${id} is being processed; refresh it once it is done.`);
    await tx.document.updateMany({ where: { id, orgId: principal.orgId }, data: { status: "queued", error: null } });
    const refreshed = await tx.document.findFirst({ where: { id, orgId: principal.orgId }, select: DOCUMENT_FIELDS });
    if (!refreshed) throw notFound(`Document ${id}`);
    return refreshed;
  });
  wakeJobWorkers();
  return refreshed;
}
