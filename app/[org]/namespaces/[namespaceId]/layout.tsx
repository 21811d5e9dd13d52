// The gate of a namespace's pages. It runs outside their loading boundaries, so that a namespace the person
// may not see (another organization's, or not granted to a member) answers 404, not a 200 saying "not found"
// after the loading skeleton was sent.
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { memberAccess, orNotFound } from "@/lib/console/session";
import { NamespaceIdForm } from "@/lib/namespaces/forms";
import { getNamespace } from "@/lib/namespaces/namespaces";

export default async function NamespaceGate({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ org: string; namespaceId: string }>;
}) {
  const { org, namespaceId } = await params;
  const access = await memberAccess(org);
  if (!access) return null;
  const id = NamespaceIdForm.safeParse({ namespace_id: namespaceId });
  if (!id.success) notFound();
  await orNotFound(getNamespace(access.principal, id.data.namespace_id));
  return children;
}
