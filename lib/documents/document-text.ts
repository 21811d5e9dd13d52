import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { getDocument } from "./get-document";
import { DocumentBlockSchema } from "./schemas";

/** The text extracted from a document, by page and heading, as its passages were made from it. */
export async function documentText(principal: Principal, id: string, activity: ActivityNote = {}) {
  const document = await getDocument(principal, id, activity);
  const prisma = await db();
  const row = await prisma.document.findFirst({
    where: { id: document.id, orgId: principal.orgId },
    select: { blocks: true },
  });
  return { id: document.id, pages: document.pageCount, blocks: DocumentBlockSchema.array().parse(row?.blocks ?? []) };
}
