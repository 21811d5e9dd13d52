import { db } from "@/lib/db";
import type { Permission } from "../permissions";
import { parseScopes } from "../scopes";

/** The keys page: every key of the organization, newest first, with its creator and granted namespaces. */
export async function listApiKeys(orgId: string) {
  const prisma = await db();
  const keys = await prisma.apiKey.findMany({
    where: { orgId, oauthClientId: null },
    include: {
      createdBy: { select: { email: true } },
      grants: { include: { namespace: { select: { id: true, name: true } } } },
    },
    orderBy: { createdAt: "desc" },
  });
  return keys.map((key) => ({
    id: key.id,
    name: key.name,
    display: key.display,
    permissions: key.permissions as Permission[],
    scopes: parseScopes(key.scopes),
    namespaces: key.grants.map((grant) => grant.namespace),
    createdBy: key.createdBy?.email ?? null,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
  }));
}
