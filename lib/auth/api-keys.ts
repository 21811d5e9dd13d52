import { createHmac, randomBytes } from "node:crypto";
import { ApiError, notFound } from "@/lib/api/errors";
import { recordAudit, type Actor } from "@/lib/audit/audit";
import { db, type Tx } from "@/lib/db";
import { base58, newId } from "@/lib/ids";
import { serverSecret } from "@/lib/secrets";
import { ROLE_PERMISSIONS, type Permission } from "./permissions";
import { parseScopes, type Scopes } from "./scopes";

const SECRET_PREFIX = "mgw_";
const LAST_USED_RESOLUTION_MS = 60_000;

/** What a request authenticated by an API key acts as. */
export interface ApiKeyPrincipal {
  kind: "api_key";
  orgId: string;
  keyId: string;
  name: string;
  permissions: Permission[];
  scopes: Scopes;
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
  /** The console user creating the key; the key's permissions may not exceed their role. */
  createdById?: string;
  /** A caller-chosen secret (headless bootstrap only); otherwise one is generated. */
  secret?: string;
}

export async function createApiKey(input: CreateApiKeyInput, actor: Actor) {
  const secret = input.secret ?? generateKeySecret();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const org = await tx.organization.findUnique({ where: { id: input.orgId } });
    if (!org) throw notFound(`Organization ${input.orgId}`);
    if (input.createdById) await assertRoleAllows(tx, input.orgId, input.createdById, input.permissions);
    const namespaceIds = [...new Set(input.namespaceIds ?? [])];
    const namespaces = await tx.namespace.findMany({
      where: { orgId: input.orgId, id: { in: namespaceIds } },
      select: { id: true },
    });
    const missing = namespaceIds.filter((id) => !namespaces.some((ns) => ns.id === id));
    if (missing.length) throw notFound(`Namespace ${missing.join(", ")} in organization ${input.orgId}`);

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
      },
    });
    await tx.namespaceGrant.createMany({
      data: namespaceIds.map((namespaceId) => ({
        id: newId("grt"),
        orgId: input.orgId,
        namespaceId,
        apiKeyId: key.id,
      })),
    });
    await recordAudit(tx, {
      orgId: input.orgId,
      actor,
      action: "api_key.create",
      targetType: "api_key",
      targetId: key.id,
      details: { name: key.name, permissions: key.permissions, scopes: key.scopes, namespace_ids: namespaceIds },
    });
    return { key, secret, namespaceIds };
  });
}

async function assertRoleAllows(tx: Tx, orgId: string, userId: string, permissions: Permission[]) {
  const membership = await tx.membership.findUnique({ where: { orgId_userId: { orgId, userId } } });
  if (!membership) throw notFound(`Organization ${orgId}`);
  const allowed = ROLE_PERMISSIONS[membership.role];
  const excess = permissions.filter((permission) => !allowed.includes(permission));
  if (excess.length) {
    throw new ApiError("FORBIDDEN", `A ${membership.role} cannot create a key with ${excess.join(", ")}.`);
  }
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

/** The principal of an `Authorization` header, or 401. Missing, malformed, unknown, revoked and expired keys look alike. */
export async function authenticateApiKey(authorization: string | null): Promise<ApiKeyPrincipal> {
  if (!authorization) throw new ApiError("UNAUTHORIZED", `Missing API key. ${UNAUTHORIZED_HINT}`);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw new ApiError("UNAUTHORIZED", `Malformed Authorization header. ${UNAUTHORIZED_HINT}`);
  const prisma = await db();
  // findFirst, not findUnique: Prisma batches findUnique calls over a tick, about a millisecond on every request.
  const key = await prisma.apiKey.findFirst({ where: { secretHash: hashKeySecret(match[1]) } });
  const now = new Date();
  if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= now)) {
    throw new ApiError("UNAUTHORIZED", "Invalid, revoked or expired API key.");
  }
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await prisma.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: now } });
  }
  return {
    kind: "api_key",
    orgId: key.orgId,
    keyId: key.id,
    name: key.name,
    permissions: key.permissions as Permission[],
    scopes: parseScopes(key.scopes),
  };
}

/** The keys page: every key of the organization, newest first, with its creator and granted namespaces. */
export async function listApiKeys(orgId: string) {
  const prisma = await db();
  const keys = await prisma.apiKey.findMany({
    where: { orgId },
    include: { createdBy: { select: { email: true } }, grants: { include: { namespace: { select: { id: true, name: true } } } } },
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
