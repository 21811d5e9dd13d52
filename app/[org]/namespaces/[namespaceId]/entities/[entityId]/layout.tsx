// The gate of an entity's page, outside its loading boundary: an entity the person may not see (another
// organization's, a namespace not granted to them, another namespace's under this one's URL) is a 404.
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { memberAccess, orNotFound } from "@/lib/console/session";
import { EntityId } from "@/lib/memory/entities/entity-json";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";

export default async function EntityGate({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ org: string; namespaceId: string; entityId: string }>;
}) {
  const { org, namespaceId, entityId } = await params;
  const access = await memberAccess(org);
  if (!access) return null;
  if (!EntityId.safeParse(entityId).success) notFound();
  const { data: entity } = await orNotFound(
    runOperation(operations.getEntity, access.principal, { params: { id: entityId } }),
  );
  if (entity.namespace_id !== namespaceId) notFound();
  return children;
}
