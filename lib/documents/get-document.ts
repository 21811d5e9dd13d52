import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { visibleDocuments } from "./document-access";
import { DOCUMENT_FIELDS, type DocumentRow } from "./document-json";

/** One document the principal may see (its organization, a namespace it may use, within its scopes). */
export async function getDocument(principal: Principal, id: string, activity: ActivityNote = {}): Promise<DocumentRow> {
  const prisma = await db();
  const document = await prisma.document.findFirst({
    where: { id, ...visibleDocuments(principal) },
    select: DOCUMENT_FIELDS,
  });
  if (!document) throw notFound(`Document ${id}`);
  activity.namespaceId = document.namespaceId;
  activity.identityId = document.identityId;
  return document;
}
