import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { ConflictError } from "@/lib/errors";
import { FileBody } from "@/lib/http/file-body";
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

/** A document's original bytes, as given or as its URL answered, for whoever may read the document. */
export async function documentContent(principal: Principal, id: string, activity: ActivityNote = {}) {
  const document = await getDocument(principal, id, activity);
  const prisma = await db();
  const row = await prisma.document.findFirst({
    where: { id: document.id, orgId: principal.orgId },
    select: { original: true },
  });
  if (!row?.original || !document.contentType) {
    throw new ConflictError(`Document ${id}'s URL has not been fetched yet; try again once it is processed.`);
  }
  const filename = document.filename ?? `${document.id}.${EXTENSIONS[document.contentType] ?? "bin"}`;
  return new FileBody(row.original, document.contentType, filename);
}
