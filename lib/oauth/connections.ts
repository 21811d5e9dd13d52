import type { ApiKeyPrincipal } from "@/lib/auth/api-keys/api-key-principal";
import { activeKey } from "@/lib/auth/api-keys/authenticate-api-key";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import type { Permission } from "@/lib/auth/permissions";
import { actorOf, type MemberPrincipal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { ForbiddenError, InvalidError, notFound, UnauthenticatedError } from "@/lib/errors";
import { mcpEndpointUrl, namespaceIdOfResource } from "@/lib/namespaces/mcp-endpoint";
import { getNamespace } from "@/lib/namespaces/namespaces";
import { name as nameSchema } from "@/lib/validation/strings";
import { endConnectionKeys } from "./ending";
import { CollectedResponse, nodeRequest } from "./node-bridge";
import { MCP_SCOPES, oauthIssuer, oauthProvider } from "./provider";

/** What a connection may do in its namespace, as the consent page offers it. */
export type ConnectionAccess = "read" | "write";
const ACCESS_PERMISSIONS: Record<ConnectionAccess, Permission> = { read: "NAMESPACE_READ", write: "NAMESPACE_WRITE" };
const ACCESS_SCOPES: Record<ConnectionAccess, string> = { read: MCP_SCOPES.read, write: MCP_SCOPES.write };
const CLIENT_NAME_MAX = 80;

/** A rejected access token: the 401's `WWW-Authenticate` says `error="invalid_token"` (RFC 6750). */
export class InvalidTokenError extends UnauthenticatedError {}

/** A client's authorization request waiting on the consent page, as stored by the authorization server. */
export interface PendingConnection {
  uid: string;
  /** The client as it registered itself: its name is its own claim; the redirect URI is where the code goes. */
  client: { id: string; name: string; redirectUri: string };
  namespaceId: string | null;
  /** The access the client asked for (its `scope`): read, and write when it asked to write. */
  requested: ConnectionAccess[];
}

/** The pending authorization request `uid`, or null when there is none (unknown, finished or expired). */
export async function pendingConnection(uid: string): Promise<PendingConnection | null> {
  const provider = oauthProvider();
  const interaction = await provider.Interaction.find(uid);
  if (!interaction || interaction.result) return null;
  const params = interaction.params as Record<string, unknown>;
  const client = await provider.Client.find(String(params.client_id));
  if (!client) return null;
  const scopes = new Set(String(params.scope ?? "").split(" "));
  const requested = (["read", "write"] as const).filter((access) => scopes.has(ACCESS_SCOPES[access]));
  return {
    uid,
    client: {
      id: client.clientId,
      name: clientDisplayName(client.clientName),
      redirectUri: String(params.redirect_uri ?? "").slice(0, 500),
    },
    namespaceId: namespaceIdOfResource(params.resource),
    // Asking to write is asking to read too (the tools that write return what they stored).
    requested: requested.includes("write") ? ["read", "write"] : requested,
  };
}

/** The organization owning a namespace, for the consent page to check the person's membership there. */
export async function organizationOfNamespace(namespaceId: string) {
  const prisma = await db();
  const namespace = await prisma.namespace.findUnique({ where: { id: namespaceId }, select: { orgId: true } });
  return namespace?.orgId ?? null;
}

/**
 * What the person may give this client: the namespace as they see it (a 404 when they may not), and the
 * access the client asked for within what their role allows there.
 */
export async function connectionOffer(member: MemberPrincipal, pending: PendingConnection) {
  if (!pending.namespaceId) throw notFound("Namespace");
  const namespace = await getNamespace(member, pending.namespaceId);
  const allowed = pending.requested.filter((access) => member.permissions.includes(ACCESS_PERMISSIONS[access]));
  return { namespace: { id: namespace.id, name: namespace.name }, allowed };
}

/** The browser's cookies as a Node request for the provider: they say which authorization it started. */
function browserRequest(cookieHeader: string) {
  const issuer = new URL(oauthIssuer());
  return nodeRequest({
    method: "POST",
    url: "/",
    headers: new Headers({ cookie: cookieHeader, host: issuer.host }),
    secure: issuer.protocol === "https:",
  });
}

/**
 * Only the browser that started an authorization request may answer it: its signed interaction cookie must
 * name this request. A link to someone else's consent page (a client started by an attacker, sent to a
 * victim to approve) is refused, and its approval could never reach the client anyway.
 */
async function assertStartedHere(uid: string, cookieHeader: string) {
  const interaction = await oauthProvider()
    .interactionDetails(browserRequest(cookieHeader), new CollectedResponse() as never)
    .catch(() => null);
  if (interaction?.uid !== uid) {
    throw new ForbiddenError(
      "This authorization was started in another browser. Start the connection again from your MCP client.",
    );
  }
}

/**
 * The person approves a connection: a grant for the namespace's endpoint with the chosen access, and the
 * key the connection acts through (created by the person, so their role and namespace grants bound it
 * from then on, and it ends when they leave the organization). An earlier connection of the same client by
 * the same person to the same namespace ends: reconnecting replaces it. Returns where the browser goes
 * next (the authorization request, which now answers the client).
 */
export async function approveConnection(input: {
  uid: string;
  member: MemberPrincipal;
  access: ConnectionAccess[];
  cookieHeader: string;
}): Promise<string> {
  const { member } = input;
  const pending = await pendingConnection(input.uid);
  if (!pending) throw new InvalidError("This authorization request has expired or was already answered.");
  await assertStartedHere(input.uid, input.cookieHeader);
  const { namespace, allowed } = await connectionOffer(member, pending);
  const access = [...new Set(input.access)];
  if (!access.includes("read"))
    throw new InvalidError("A connection reads its namespace: choose read, or read and write.");
  const beyond = access.filter((one) => !allowed.includes(one));
  if (beyond.length > 0) {
    throw new ForbiddenError(`You cannot give this client ${beyond.join(" and ")} access to ${namespace.name}.`);
  }
  const provider = oauthProvider();
  const grant = new provider.Grant({ accountId: member.userId, clientId: pending.client.id });
  grant.addResourceScope(mcpEndpointUrl(namespace.id), access.map((one) => ACCESS_SCOPES[one]).join(" "));
  const grantId = await grant.save();
  await endConnections(member, { clientId: pending.client.id, namespaceId: namespace.id }, "connected again");
  const { key } = await createApiKey(
    {
      orgId: member.orgId,
      name: pending.client.name,
      permissions: access.map((one) => ACCESS_PERMISSIONS[one]),
      namespaceIds: [namespace.id],
      createdById: member.userId,
      oauth: { clientId: pending.client.id, grantId },
    },
    actorOf(member),
  );
  const result = { login: { accountId: member.userId }, consent: { grantId }, connection: { keyId: key.id } };
  return provider.interactionResult(browserRequest(input.cookieHeader), new CollectedResponse() as never, result);
}

/** The person denies a connection: the client is told `access_denied`. */
export async function denyConnection(uid: string, cookieHeader: string): Promise<string> {
  if (!(await pendingConnection(uid))) {
    throw new InvalidError("This authorization request has expired or was already answered.");
  }
  await assertStartedHere(uid, cookieHeader);
  const result = { error: "access_denied", error_description: "The person denied the connection." };
  return oauthProvider().interactionResult(browserRequest(cookieHeader), new CollectedResponse() as never, result, {
    mergeWithLastSubmission: false,
  });
}

/**
 * The principal of an OAuth access token on a namespace's MCP endpoint: the connection's key, with no more
 * than the token's scopes allow. A token is good only on the endpoint it was issued for (its audience), and
 * only while it is unexpired, its connection stands and its person is still a member (activeKey).
 */
export async function authenticateAccessToken(token: string, namespaceId: string): Promise<ApiKeyPrincipal> {
  const accessToken = await oauthProvider().AccessToken.find(token);
  if (!accessToken) throw new InvalidTokenError("The access token is invalid, expired or revoked.");
  if (accessToken.aud !== mcpEndpointUrl(namespaceId)) {
    throw new InvalidTokenError("The access token was issued for another MCP endpoint.");
  }
  const key = accessToken.grantId ? await activeKey("oauth_grant_id", accessToken.grantId) : null;
  if (!key) throw new InvalidTokenError("This connection was revoked. Connect the client again.");
  const scopes = new Set((accessToken.scope ?? "").split(" "));
  const permitted = new Set(
    (Object.keys(ACCESS_PERMISSIONS) as ConnectionAccess[])
      .filter((access) => scopes.has(ACCESS_SCOPES[access]))
      .map((access) => ACCESS_PERMISSIONS[access]),
  );
  return {
    ...key,
    permissions: key.permissions.filter((permission) => permitted.has(permission)),
    connection: { clientName: key.name },
  };
}

/**
 * The connected MCP clients of an organization, the ones still standing: all of them for the organization's
 * page, or those a person connected (`userId`), with their namespace, access and last use.
 */
export async function listConnections(orgId: string, filter: { userId?: string } = {}) {
  const prisma = await db();
  const keys = await prisma.apiKey.findMany({
    where: {
      orgId,
      oauthClientId: { not: null },
      revokedAt: null,
      ...(filter.userId ? { createdById: filter.userId } : {}),
    },
    include: {
      createdBy: { select: { email: true } },
      grants: { include: { namespace: { select: { id: true, name: true } } } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
  return keys.map((key) => ({
    id: key.id,
    clientName: key.name,
    clientId: key.oauthClientId!,
    namespace: key.grants[0]?.namespace ?? null,
    access: (Object.keys(ACCESS_PERMISSIONS) as ConnectionAccess[]).filter((access) =>
      key.permissions.includes(ACCESS_PERMISSIONS[access]),
    ),
    connectedBy: key.createdBy?.email ?? null,
    connectedAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
  }));
}

/**
 * Ends a connection at once: its key is revoked and its grant, access and refresh tokens deleted, so the
 * client's next request is a 401. A person ends their own; owners and admins any of the organization's.
 */
export async function revokeConnection(member: MemberPrincipal, keyId: string) {
  const own = member.role === "member" ? { createdById: member.userId } : {};
  const prisma = await db();
  const key = await prisma.apiKey.findFirst({
    where: { id: keyId, orgId: member.orgId, oauthClientId: { not: null }, revokedAt: null, ...own },
  });
  if (!key) throw notFound(`Connected client ${keyId}`);
  await endConnectionKeys([key], actorOf(member), "revoked in the console");
}

/** Ends the connections of one client by one person to one namespace (before a new one replaces them). */
async function endConnections(member: MemberPrincipal, of: { clientId: string; namespaceId: string }, reason: string) {
  const prisma = await db();
  const keys = await prisma.apiKey.findMany({
    where: {
      orgId: member.orgId,
      createdById: member.userId,
      oauthClientId: of.clientId,
      revokedAt: null,
      grants: { some: { namespaceId: of.namespaceId } },
    },
  });
  await endConnectionKeys(keys, actorOf(member), reason);
}

/** A client's self-declared name as people read it (the key's name, the activity log's actor). */
function clientDisplayName(clientName: unknown): string {
  const cleaned = typeof clientName === "string" ? clientName.replace(/[\p{Cc}\p{Cf}]/gu, "").slice(0, 200) : "";
  const parsed = nameSchema({ min: 1, max: CLIENT_NAME_MAX }).safeParse(cleaned.slice(0, CLIENT_NAME_MAX));
  return parsed.success ? parsed.data : "MCP client";
}
