// The key-creation policy, shared by creating a key and editing one (lib/auth/api-keys/create-api-key.ts,
// update-api-key.ts).
import { ForbiddenError, InvalidError, namespaceNotFound, notFound } from "@/lib/errors";
import type { Tx } from "@/lib/db";
import type { Role } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";
import { namespacesOfMember, ROLE_PERMISSIONS, type Permission } from "../permissions";
import { KEY_NAMESPACES_MAX, TOO_MANY_KEY_NAMESPACES } from "../schemas";
import type { Scopes } from "../scopes";
import { scopesForbidManage } from "./scoped-key-rule";

/**
 * What a key may be given, whether new or edited: `access` is the key's whole resulting permissions and
 * scopes; `granting` what the grantor adds (everything for a new key), which must be theirs to give.
 * `grantor` is null for the operator, whom nothing bounds but the organization.
 */
export async function assertKeyPolicy(
  tx: Tx,
  orgId: string,
  grantor: { userId: string; role: Role } | null,
  access: { permissions: Permission[]; scopes: Scopes },
  granting: { permissions: Permission[]; namespaceIds: string[] },
) {
  assertScopedKeyCannotManage(access.permissions, access.scopes);
  await assertNamespacesGrantable(tx, orgId, grantor, granting.namespaceIds);
  if (grantor) assertRoleAllows(grantor.role, granting.permissions);
}

export function assertNamespaceCount(namespaceIds: string[], when: string) {
  if (namespaceIds.length <= KEY_NAMESPACES_MAX) return;
  const message = `A key is granted at most ${KEY_NAMESPACES_MAX} namespaces${when ? ` ${when}` : ""}.`;
  throw new InvalidError(message, [{ field: "namespace_ids", message: TOO_MANY_KEY_NAMESPACES }]);
}

export async function grantNamespaces(tx: Tx, orgId: string, apiKeyId: string, namespaceIds: string[]) {
  await tx.namespaceGrant.createMany({
    data: namespaceIds.map((namespaceId) => ({ id: newId("grt"), orgId, namespaceId, apiKeyId })),
  });
}

/** A key with scopes and NAMESPACE_MANAGE is not created (the rule, shared with the console: scoped-key-rule.ts). */
export function assertScopedKeyCannotManage(permissions: Permission[], scopes: Scopes | undefined) {
  if (!scopesForbidManage(permissions, scopes)) return;
  const message =
    "A key with scopes cannot have NAMESPACE_MANAGE: managing a namespace reaches beyond any scope. " +
    "Create a separate key without scopes to manage namespaces.";
  throw new InvalidError(message, [{ field: "permissions", message }]);
}

export async function creatingMember(tx: Tx, orgId: string, userId: string) {
  const membership = await tx.membership.findUnique({ where: { orgId_userId: { orgId, userId } } });
  if (!membership) throw notFound(`Organization ${orgId}`);
  return { userId, role: membership.role };
}

/**
 * The namespaces exist in the organization and, for a member, are theirs to grant: a member cannot give
 * a key more reach than they have. Both refusals read alike ("not found"), so that a member cannot tell
 * a namespace they are not granted from one that does not exist, nor one of another organization.
 */
async function assertNamespacesGrantable(
  tx: Tx,
  orgId: string,
  creator: { userId: string; role: Role } | null,
  namespaceIds: string[],
) {
  if (namespaceIds.length === 0) return;
  const reachable = await tx.namespace.findMany({
    where: { orgId, id: { in: namespaceIds }, ...(creator && namespacesOfMember(creator)) },
    select: { id: true },
  });
  const refused = namespaceIds.filter((id) => !reachable.some((ns) => ns.id === id));
  if (refused.length === 0) return;
  throw namespaceNotFound(`Namespace ${refused.join(", ")}`);
}

export function assertRoleAllows(role: Role, permissions: Permission[], whose?: string) {
  const allowed = ROLE_PERMISSIONS[role];
  const excess = permissions.filter((permission) => !allowed.includes(permission));
  if (excess.length === 0) return;
  if (whose) throw new ForbiddenError(`A key ${whose} a ${role} cannot have ${excess.join(", ")}.`);
  throw new ForbiddenError(`A ${role} cannot give a key ${excess.join(", ")}.`);
}
