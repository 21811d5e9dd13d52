import { recordAudit, type Actor } from "@/lib/audit/audit";
import type { Tx } from "@/lib/db";
import { db } from "@/lib/db";
import { InvalidError, notFound } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { namespacesOfMember, type Permission } from "../permissions";
import { parseScopes, type Scopes } from "../scopes";
import { assertKeyPolicy, assertNamespaceCount, assertRoleAllows, creatingMember, grantNamespaces } from "./key-policy";

export interface UpdateApiKeyInput {
  orgId: string;
  keyId: string;
  /** The member editing (the console): members edit only the keys they created, owners and admins any. */
  editorId: string;
  /** Each field left out stays as it is. */
  permissions?: Permission[];
  scopes?: Scopes;
  /** The namespaces the key is granted, as the editor sees them (see below for a member's). */
  namespaceIds?: string[];
}

/**
 * Changes what an existing key may do and reach, under the creation policy (assertKeyPolicy): an editor
 * gives a key only what they could give a new one (permissions of their role, namespaces they may use);
 * taking away is always allowed. A member's list of namespaces replaces only the part of the key's grants
 * they can see: grants outside their reach (added by an admin) are neither shown to them nor removed.
 * Keys are read from the database on every request (authenticateApiKey), so the change applies to the
 * key's very next request. Revoked and expired keys are not edited: nothing can use them again.
 */
export async function updateApiKey(input: UpdateApiKeyInput, actor: Actor) {
  const requestedIds = input.namespaceIds && [...new Set(input.namespaceIds)];
  if (requestedIds) assertNamespaceCount(requestedIds, "");
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const editor = await creatingMember(tx, input.orgId, input.editorId);
    const ownKeysOnly = editor.role === "member" ? { createdById: editor.userId } : {};
    const key = await tx.apiKey.findFirst({
      // A connected MCP client's access is what its person approved: changed only by connecting again.
      where: { id: input.keyId, orgId: input.orgId, oauthClientId: null, ...ownKeysOnly },
      include: { grants: { select: { namespaceId: true } } },
    });
    if (!key) throw notFound(`API key ${input.keyId}`);
    if (key.revokedAt || (key.expiresAt && key.expiresAt <= new Date())) {
      throw new InvalidError(`API key ${key.name} is revoked or expired: nothing can use it, so it cannot be edited.`);
    }
    const before = {
      permissions: key.permissions as Permission[],
      scopes: parseScopes(key.scopes),
      namespace_ids: key.grants.map((grant) => grant.namespaceId).sort(),
    };
    const permissions = input.permissions ? [...new Set(input.permissions)] : before.permissions;
    const scopes = input.scopes ?? before.scopes;
    const namespaceIds = requestedIds
      ? [...new Set([...requestedIds, ...(await grantsOutOfReach(tx, input.orgId, editor, before.namespace_ids))])]
      : before.namespace_ids;
    const granting = {
      permissions: permissions.filter((permission) => !before.permissions.includes(permission)),
      namespaceIds: namespaceIds.filter((id) => !before.namespace_ids.includes(id)),
    };
    await assertKeyPolicy(tx, input.orgId, editor, { permissions, scopes }, granting);
    // An owner editing a member's key: the key stays within its creator's role too (it would be withheld).
    const creator = key.createdById && key.createdById !== editor.userId ? await keyCreator(tx, key) : null;
    if (creator) assertRoleAllows(creator.role, granting.permissions, "whose creator is");

    const removedIds = before.namespace_ids.filter((id) => !namespaceIds.includes(id));
    await tx.namespaceGrant.deleteMany({
      where: { orgId: input.orgId, apiKeyId: key.id, namespaceId: { in: removedIds } },
    });
    await grantNamespaces(tx, input.orgId, key.id, granting.namespaceIds);
    const updated = await tx.apiKey.update({ where: { id: key.id }, data: { permissions, scopes } });
    const after = { permissions, scopes, namespace_ids: [...namespaceIds].sort() };
    await recordAudit(tx, {
      orgId: input.orgId,
      actor,
      action: "api_key.update",
      targetType: "api_key",
      targetId: key.id,
      details: { name: key.name, before, after },
    });
    return { key: updated, namespaceIds: after.namespace_ids };
  });
}

/** The key's grants a member editing it cannot see (namespaces not granted to them): their edit keeps these. */
async function grantsOutOfReach(tx: Tx, orgId: string, editor: { userId: string; role: Role }, ids: string[]) {
  if (editor.role !== "member" || ids.length === 0) return [];
  const reachable = await tx.namespace.findMany({
    where: { orgId, id: { in: ids }, ...namespacesOfMember(editor) },
    select: { id: true },
  });
  return ids.filter((id) => !reachable.some((ns) => ns.id === id));
}

async function keyCreator(tx: Tx, key: { orgId: string; createdById: string | null }) {
  if (!key.createdById) return null;
  const membership = await tx.membership.findUnique({
    where: { orgId_userId: { orgId: key.orgId, userId: key.createdById } },
  });
  return membership && { userId: key.createdById, role: membership.role };
}
