import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { Page, pageWindow } from "@/lib/http/pagination";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { visibleDocuments } from "./document-access";
import { DOCUMENT_FIELDS } from "./document-json";
import type { ListDocumentsQuery } from "./schemas";

/** A namespace's documents the principal may see, newest first, by page. */
export async function listDocuments(principal: Principal, query: ListDocumentsQuery, activity: ActivityNote = {}) {
  const namespace = await resolveTarget(principal, { namespace_id: query.namespace_id });
  activity.namespaceId = namespace.id;
  const prisma = await db();
  const where = {
    ...visibleDocuments(principal),
    namespaceId: namespace.id,
    ...(query.status && { status: query.status }),
  };
  const [documents, total] = await Promise.all([
    prisma.document.findMany({
      where,
      select: DOCUMENT_FIELDS,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...pageWindow(query),
    }),
    prisma.document.count({ where }),
  ]);
  return new Page(documents, total, query);
}
