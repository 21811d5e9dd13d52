import { createHmac, randomBytes } from "node:crypto";
import { ForbiddenError, InvalidError, notFound, UnauthenticatedError } from "@/lib/errors";
import { recordAudit, type Actor } from "@/lib/audit/audit";
import { db, type Tx } from "@/lib/db";
import { cachedAccessRead } from "@/lib/db/access-cache";
import type { Role } from "@/lib/generated/prisma/enums";
import { base58, newId } from "@/lib/ids";
import { serverSecret } from "@/lib/secrets";
import { namespacesOfMember, ROLE_PERMISSIONS, type Permission } from "./permissions";
import { KEY_NAMESPACES_MAX, TOO_MANY_KEY_NAMESPACES } from "./schemas";
import { parseScopes, type Scopes } from "./scopes";

const SECRET_PREFIX = "mgw_";
const LAST_USED_RESOLUTION_MS = 60_000;

/** What a request authenticated by an API key acts as. */
export interface ApiKeyPrincipal {
  kind: "api_key";
  orgId: string;
  keyId: string;
  name: string;
  /** What the key may do now: its own permissions, bounded by its creator's current role. */
  permissions: Permission[];
  /** Permissions the key was given that its creator's current role no longer allows. */
  withheld?: { creatorRole: Role; permissions: Permission[] };
  scopes: Scopes;
  /**
   * The member who created the key and their current role; null for operator keys (made on the `memgw`
   * command line). A member's key reaches only the namespaces the member is granted too (see namespaceAccess).
   */
  creator: { userId: string; role: Role } | null;
  /**
   * For a connected MCP client (an OAuth token, lib/oauth/connections.ts): the person who connected it,
   * the identity of the calls that name none.
   */
  defaultIdentityId?: string;
}

export function generateKeySecret(): string {
  return SECRET_PREFIX + base58(randomBytes(32));
}

export function hashKeySecret(secret: string): string {
  return createHmac("sha256", serverSecret("KEY_PEPPER")).update(secret).digest("hex");
}

export function displayKeySecret(secret: string): string {
  return `${SECRET_PREFIX}…${secret.slice(-4)}`;
}

export interface CreateApiKeyInput {
  orgId: string;
  name: string;
  permissions: Permission[];
  scopes?: Scopes;
  namespaceIds?: string[];
  /**
   * The member creating the key (the console), whose role and namespaces bound it. Absent for the operator
   * (the `memgw` command line): nothing bounds an operator key but its organization.
   */
  createdById?: string;
  /** A caller-chosen secret (headless bootstrap only); otherwise one is generated. */
  secret?: string;
  /** For a connected MCP client (lib/oauth/connections.ts): its OAuth client and the grant it stands for. */
  oauth?: { clientId: string; grantId: string };
}

/**
 * The whole key-creation policy, the same for the console, the CLI and the start-up bootstrap:
 * - who: a member of the organization (any role), or the operator;
 * - namespaces: at most KEY_NAMESPACES_MAX, of the organization, and for a member only those they may use
 *   themselves (namespacesOfMember);
 * - permissions: at most what the creator's role allows (ROLE_PERMISSIONS);
 * - scopes: a key with scopes cannot manage namespaces.
 * Editing a key later (updateApiKey) goes through the same checks (assertKeyPolicy).
 */
export async function createApiKey(input: CreateApiKeyInput, actor: Actor) {
  assertScopedKeyCannotManage(input.permissions, input.scopes);
  const namespaceIds = [...new Set(input.namespaceIds ?? [])];
  assertNamespaceCount(namespaceIds, "when created");
  const secret = input.secret ?? generateKeySecret();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const org = await tx.organization.findUnique({ where: { id: input.orgId } });
    if (!org) throw notFound(`Organization ${input.orgId}`);
    const creator = input.createdById ? await creatingMember(tx, input.orgId, input.createdById) : null;
    const access = { permissions: input.permissions, scopes: input.scopes ?? {} };
    await assertKeyPolicy(tx, input.orgId, creator, access, { permissions: input.permissions, namespaceIds });

    const key = await tx.apiKey.create({
      data: {
        id: newId("key"),
        orgId: input.orgId,
        name: input.name,
        secretHash: hashKeySecret(secret),
        display: displayKeySecret(secret),
        permissions: [...new Set(input.permissions)],
        scopes: input.scopes ?? {},
        createdById: input.createdById ?? null,
        oauthClientId: input.oauth?.clientId ?? null,
        oauthGrantId: input.oauth?.grantId ?? null,
      },
    });
    await grantNamespaces(tx, input.orgId, key.id, namespaceIds);
    await recordAudit(tx, {
      orgId: input.orgId,
      actor,
      action: input.oauth ? "mcp_client.connect" : "api_key.create",
      targetType: "api_key",
      targetId: key.id,
      details: {
        name: key.name,
        permissions: key.permissions,
        scopes: key.scopes,
        namespace_ids: namespaceIds,
        ...(input.oauth ? { client_id: input.oauth.clientId } : {}),
      },
    });
    return { key, secret, namespaceIds };
  });
}

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

/**
 * What a key may be given, whether new or edited: `access` is the key's whole resulting permissions and
 * scopes; `granting` what the grantor adds (everything for a new key), which must be theirs to give.
 * `grantor` is null for the operator, whom nothing bounds but the organization.
 */
async function assertKeyPolicy(
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

function assertNamespaceCount(namespaceIds: string[], when: string) {
  if (namespaceIds.length <= KEY_NAMESPACES_MAX) return;
  const message = `A key is granted at most ${KEY_NAMESPACES_MAX} namespaces${when ? ` ${when}` : ""}.`;
  throw new InvalidError(message, [{ field: "namespace_ids", message: TOO_MANY_KEY_NAMESPACES }]);
}

async function grantNamespaces(tx: Tx, orgId: string, apiKeyId: string, namespaceIds: string[]) {
  await tx.namespaceGrant.createMany({
    data: namespaceIds.map((namespaceId) => ({ id: newId("grt"), orgId, namespaceId, apiKeyId })),
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

/**
 * A key with scopes is refused every namespace-wide operation (lib/auth/principal), which is all that
 * NAMESPACE_MANAGE allows: such a key would carry a permission it can never use, so it is not created.
 */
function assertScopedKeyCannotManage(permissions: Permission[], scopes: Scopes | undefined) {
  if (!scopes || Object.keys(scopes).length === 0 || !permissions.includes("NAMESPACE_MANAGE")) return;
  const message =
    "A key with scopes cannot have NAMESPACE_MANAGE: managing a namespace reaches beyond any scope. " +
    "Create a separate key without scopes to manage namespaces.";
  throw new InvalidError(message, [{ field: "permissions", message }]);
}

async function creatingMember(tx: Tx, orgId: string, userId: string) {
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
  throw notFound(`Namespace ${refused.join(", ")}`);
}

function assertRoleAllows(role: Role, permissions: Permission[], whose?: string) {
  const allowed = ROLE_PERMISSIONS[role];
  const excess = permissions.filter((permission) => !allowed.includes(permission));
  if (excess.length === 0) return;
  if (whose) throw new ForbiddenError(`A key ${whose} a ${role} cannot have ${excess.join(", ")}.`);
  throw new ForbiddenError(`A ${role} cannot give a key ${excess.join(", ")}.`);
}

/**
 * Revocation is immediate: keys are looked up on every request, never cached. Revoking twice is a no-op.
 * `within` bounds the lookup to an organization and, for a console member, to the keys they created.
 */
export async function revokeApiKey(keyId: string, actor: Actor, within: { orgId?: string; createdById?: string } = {}) {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({ where: { id: keyId, ...within } });
    if (!key) throw notFound(`API key ${keyId}`);
    if (key.revokedAt) return key;
    const revoked = await tx.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    await deleteOauthGrants(tx, [key]);
    await recordAudit(tx, {
      orgId: key.orgId,
      actor,
      action: "api_key.revoke",
      targetType: "api_key",
      targetId: key.id,
      details: { name: key.name },
    });
    return revoked;
  });
}

const UNAUTHORIZED_HINT = "Send an API key as `Authorization: Bearer mgw_…`.";

/**
 * The principal of an `Authorization` header, or 401.
 * Missing, malformed, unknown, revoked and expired keys look alike.
 */
export async function authenticateApiKey(authorization: string | null): Promise<ApiKeyPrincipal> {
  const secret = bearerValue(authorization, UNAUTHORIZED_HINT);
  const key = await activeKey("secret_hash", hashKeySecret(secret));
  if (!key) throw new UnauthenticatedError("Invalid, revoked or expired API key.");
  return key;
}

/** The bearer value of an `Authorization` header, or 401 saying what to send. */
export function bearerValue(authorization: string | null, hint: string): string {
  if (!authorization) throw new UnauthenticatedError(`Missing API key. ${hint}`);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw new UnauthenticatedError(`Malformed Authorization header. ${hint}`);
  return match[1];
}

/**
 * The key with this secret hash, or standing for this OAuth grant (a connected MCP client,
 * lib/oauth/connections.ts), as a principal; null when there is none or it cannot be used now.
 */
export async function activeKey(by: "secret_hash" | "oauth_grant_id", value: string): Promise<ApiKeyPrincipal | null> {
  const prisma = await db();
  // One statement: the key and its creator's current role in the key's organization (a key never does
  // more than its creator's role allows now, not only when it was created). Kept briefly (see
  // lib/db/access-cache.ts); what depends on the time is decided below, on every request.
  const key = await cachedAccessRead(`api-key:${by}:${value}`, async () => {
    const [row] = await prisma.$queryRawUnsafe<AuthenticatedKeyRow[]>(
      `SELECT k.id, k.org_id, k.name, k.permissions, k.scopes, k.created_by_id, k.oauth_client_id,
              k.last_used_at, k.revoked_at, k.expires_at, m.role::text AS creator_role
       FROM api_keys k LEFT JOIN memberships m ON m.org_id = k.org_id AND m.user_id = k.created_by_id
       WHERE k.${by} = $1
       LIMIT 1`,
      value,
    );
    return row ?? null;
  });
  const now = new Date();
  // A key whose creator has left the organization is dead like a revoked one (removing a member revokes
  // or hands over their keys; this also covers keys from before that, and any path that missed it).
  const creatorGone = key?.created_by_id != null && key.creator_role === null;
  if (!key || key.revoked_at || (key.expires_at && new Date(key.expires_at) <= now) || creatorGone) return null;
  const lastUsedAt = key.last_used_at && new Date(key.last_used_at);
  if (!lastUsedAt || now.getTime() - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await prisma.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: now } });
  }
  const creator = key.created_by_id && key.creator_role ? { userId: key.created_by_id, role: key.creator_role } : null;
  return {
    kind: "api_key",
    orgId: key.org_id,
    keyId: key.id,
    name: key.name,
    ...boundedPermissions(key),
    scopes: parseScopes(key.scopes),
    creator,
    // A connected client acts for the person who connected it: their identity unless a call names another.
    ...(key.oauth_client_id && creator ? { defaultIdentityId: creator.userId } : {}),
  };
}

interface AuthenticatedKeyRow {
  id: string;
  org_id: string;
  name: string;
  permissions: string[];
  scopes: unknown;
  created_by_id: string | null;
  oauth_client_id: string | null;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
  expires_at: Date | string | null;
  creator_role: Role | null;
}

/**
 * The key's permissions within its creator's current role. Keys without a creator were made by the
 * operator on the `memgw` command line: nothing bounds them but their own list.
 */
export function boundedPermissions(
  key: Pick<AuthenticatedKeyRow, "permissions" | "creator_role">,
): Pick<ApiKeyPrincipal, "permissions" | "withheld"> {
  const permissions = key.permissions as Permission[];
  if (!key.creator_role) return { permissions };
  const allowed = ROLE_PERMISSIONS[key.creator_role];
  const withheld = permissions.filter((permission) => !allowed.includes(permission));
  if (withheld.length === 0) return { permissions };
  return {
    permissions: permissions.filter((permission) => allowed.includes(permission)),
    withheld: { creatorRole: key.creator_role, permissions: withheld },
  };
}

/** Why a key may not do what needs `permission`: it was never given it, or its creator's role no longer allows it. */
export function missingPermissionMessage(key: ApiKeyPrincipal, permission: Permission): string {
  if (key.withheld?.permissions.includes(permission)) {
    return (
      `This API key was given ${permission}, but the member who created it is now ${key.withheld.creatorRole}, ` +
      `a role whose keys cannot have it.`
    );
  }
  return `This API key lacks the ${permission} permission.`;
}

/** Keys that still authenticate (as far as the key row alone says). */
const activeKeyWhere = () => ({ revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] });

/** The active keys each member of an organization created, for the members page (what removing them affects). */
export async function activeKeysByCreator(orgId: string) {
  const prisma = await db();
  const keys = await prisma.apiKey.findMany({
    where: { orgId, createdById: { not: null }, oauthClientId: null, ...activeKeyWhere() },
    select: { id: true, name: true, display: true, createdById: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const byCreator = new Map<string, { id: string; name: string; display: string }[]>();
  for (const { createdById, ...key } of keys) {
    byCreator.set(createdById!, [...(byCreator.get(createdById!) ?? []), key]);
  }
  return byCreator;
}

/**
 * When a member leaves, the keys they created either die with their membership or pass to `transferTo`
 * (another member, usually the person removing them), whose role then bounds them. The MCP clients they
 * connected always end: a connection acts as its person, never as someone else. Runs inside the removal's
 * transaction, one audit entry per key.
 */
export async function settleKeysOfDepartingMember(
  tx: Tx,
  input: { orgId: string; userId: string; transferTo?: string },
  actor: Actor,
) {
  const keys = await tx.apiKey.findMany({
    where: { orgId: input.orgId, createdById: input.userId, ...activeKeyWhere() },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const transferred = input.transferTo ? keys.filter((key) => !key.oauthClientId) : [];
  const revoked = keys.filter((key) => !transferred.includes(key));
  if (transferred.length > 0) {
    const where = { id: { in: transferred.map((key) => key.id) }, orgId: input.orgId };
    await tx.apiKey.updateMany({ where, data: { createdById: input.transferTo } });
  }
  if (revoked.length > 0) {
    const where = { id: { in: revoked.map((key) => key.id) }, orgId: input.orgId };
    await tx.apiKey.updateMany({ where, data: { revokedAt: new Date() } });
    await deleteOauthGrants(tx, revoked);
  }
  for (const key of keys) {
    const transfer = transferred.includes(key);
    await recordAudit(tx, {
      orgId: input.orgId,
      actor,
      action: transfer ? "api_key.transfer" : key.oauthClientId ? "mcp_client.revoke" : "api_key.revoke",
      targetType: "api_key",
      targetId: key.id,
      details: transfer
        ? { name: key.name, from_user_id: input.userId, to_user_id: input.transferTo }
        : { name: key.name, reason: "creator removed from the organization", creator_user_id: input.userId },
    });
  }
  return { revoked: revoked.map((key) => key.id), transferred: transferred.map((key) => key.id) };
}

/**
 * A revoked connected client's OAuth grant goes with its key: its refresh token can no longer mint access
 * tokens (which its key would refuse anyway).
 */
export async function deleteOauthGrants(tx: Tx, keys: { oauthGrantId: string | null }[]) {
  const grantIds = keys.flatMap((key) => (key.oauthGrantId ? [key.oauthGrantId] : []));
  if (grantIds.length > 0) await tx.oauthRecord.deleteMany({ where: { grantId: { in: grantIds } } });
}

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
