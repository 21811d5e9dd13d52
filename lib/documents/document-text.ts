import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { ConflictError } from "@/lib/errors";
import { getDocument } from "./get-document";
import { DocumentBlockSchema } from "./schemas";

/**
 * The text extracted from a document, by page and heading, as its passages were made from it:
 * `{id, pages, blocks: [{page, section, text}]}`. A document being read again (a refresh) keeps the text of
 * its last reading, like its passages. Throws ConflictError (409) naming the document's status when it has no
 * text yet (queued, processing, or failed before any reading succeeded): an empty 200 would read as "nothing
 * in it".
 */
export async function documentText(principal: Principal, id: string, activity: ActivityNote = {}) {
  const document = await getDocument(principal, id, activity);
  const prisma = await db();
  const row = await prisma.document.findFirst({
    where: { id: document.id, orgId: principal.orgId },
    select: { blocks: true },
  });
  const blocks = DocumentBlockSchema.array().parse(row?.blocks ?? []);
  if (document.status !== "ready" && blocks.length === 0) throw notReadYet(document);
  return { id: document.id, pages: document.pageCount, blocks };
}

function notReadYet(document: { id: string; status: string }): ConflictError {
  if (document.status === "failed") {
    return new ConflictError(
      `Document ${document.id} is failed: it could not be read, so it has no text (see its error).`,
    );
  }
  return new ConflictError(
    `Document ${document.id} is ${document.status}: its text is not read yet; try again once its status is ready.`,
  );
}
