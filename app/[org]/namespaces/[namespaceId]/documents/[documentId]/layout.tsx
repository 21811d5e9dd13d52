// The gate of a document's page, outside its loading boundary: a document the person may not see (another
// organization's, a namespace not granted to them, another namespace's under this one's URL) is a 404.
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { memberAccess, orNotFound } from "@/lib/console/session";
import { getDocument } from "@/lib/documents/get-document";
import { DocumentIdParams } from "@/lib/documents/schemas";

export default async function DocumentGate({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ org: string; namespaceId: string; documentId: string }>;
}) {
  const { org, namespaceId, documentId } = await params;
  const access = await memberAccess(org);
  if (!access) return null;
  if (!DocumentIdParams.safeParse({ id: documentId }).success) notFound();
  const document = await orNotFound(getDocument(access.principal, documentId));
  if (document.namespaceId !== namespaceId) notFound();
  return children;
}
