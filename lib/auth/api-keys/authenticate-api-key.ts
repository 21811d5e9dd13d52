import { db } from "@/lib/db";
import { cachedAccessRead } from "@/lib/auth/access-reads";
import { UnauthenticatedError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Role } from "@/lib/generated/prisma/enums";
import { parseScopes } from "../scopes";
import { boundedPermissions, type ApiKeyPrincipal } from "./api-key-principal";
import { hashKeySecret } from "./key-secrets";

const LAST_USED_RESOLUTION_MS = 60_000;

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
    const [row] = await prisma.$queryRaw<AuthenticatedKeyRow[]>(
      Prisma.sql`SELECT k.id, k.org_id, k.name, k.permissions, k.scopes, k.created_by_id, k.oauth_client_id,
                        k.last_used_at, k.revoked_at, k.expires_at, m.role::text AS creator_role
                 FROM api_keys k LEFT JOIN memberships m ON m.org_id = k.org_id AND m.user_id = k.created_by_id
                 WHERE k.${Prisma.raw(by)} = ${value}
                 LIMIT 1`,
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
