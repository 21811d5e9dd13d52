import { namespaceAccess, type Principal } from "@/lib/auth/principal";
import { db, type Tx } from "@/lib/db";
import { namespaceNotFound, notFound } from "@/lib/errors";

/**
 * The endpoints a principal manages: an owner's or admin's every endpoint of the organization; a key's only
 * those it made (another key's endpoint may receive namespaces this one was never granted).
 */
export function visibleEndpoints(principal: Principal) {
  return principal.kind === "api_key"
    ? { orgId: principal.orgId, apiKeyId: principal.keyId }
    : { orgId: principal.orgId };
}

/** The endpoint, if the principal manages it; 404 otherwise (another organization's id included). */
export async function findEndpoint(principal: Principal, id: string, tx?: Tx) {
  const prisma = tx ?? (await db());
  const endpoint = await prisma.webhookEndpoint.findFirst({ where: { id, ...visibleEndpoints(principal) } });
  if (!endpoint) throw notFound(`Webhook endpoint ${id}`);
  return endpoint;
}

/** A namespace filter may name only namespaces the principal may use (404 for another's, as everywhere). */
export async function assertNamespacesUsable(principal: Principal, namespaceIds: readonly string[]) {
  if (namespaceIds.length === 0) return;
  const prisma = await db();
  const found = await prisma.namespace.findMany({
    where: { id: { in: [...namespaceIds] }, ...namespaceAccess(principal) },
    select: { id: true },
  });
  const usable = new Set(found.map((namespace) => namespace.id));
  const refused = namespaceIds.filter((id) => !usable.has(id));
  if (refused.length > 0) throw namespaceNotFound(`Namespace ${refused.join(", ")}`);
}
