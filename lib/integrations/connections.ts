// Connections of a namespace to a provider: starting the OAuth flow, completing it, listing, syncing on
// demand and deleting with what they brought. The API, the browser callback and the console share these.
// A connection is visible to whoever may see its namespace in its organization (namespaceAccess); any
// other id is "not found", whatever organization it belongs to.
import { recordAudit, SYSTEM_ACTOR, type Actor } from "@/lib/audit/audit";
import { missingPermissionMessage } from "@/lib/auth/api-keys";
import { actorOf, assertPermission, namespaceAccess, type MemberPrincipal, type Principal } from "@/lib/auth/principal";
import { publicUrl } from "@/lib/config";
import { decrypt, encrypt } from "@/lib/crypto/encryption";
import { db, type Prisma, type Tx } from "@/lib/db";
import { ConflictError, DomainError, ForbiddenError, InvalidError, notFound, UpstreamError } from "@/lib/errors";
import type { IntegrationConnection } from "@/lib/generated/prisma/client";
import { pageWindow } from "@/lib/http/pagination";
import { newId } from "@/lib/ids";
import { activeJob, cancelQueuedJob, enqueueJob } from "@/lib/jobs/queue";
import { deleteMemories } from "@/lib/memory/memories";
import { recordErasure } from "@/lib/namespaces/erasure-receipts";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { oauthClientFor } from "./clients";
import { authorizationUrl, exchangeCode, GrantRefusedError, hashState, randomToken } from "./oauth";
import type { ProviderId } from "./provider";
import { PROVIDERS, providerEndpoints } from "./providers";
import type {
  CompleteConnectionBody,
  ConnectionJson,
  CreateConnectionBody,
  ListConnectionsQuery,
  ReconnectConnectionBody,
} from "./schemas";

/** How long the person has on the provider's consent page. */
const STATE_TTL_MS = 10 * 60_000;
export const SYNC_JOB_KIND = "integration.sync";

export const syncJobKey = (connectionId: string) => `integration.sync:${connectionId}`;

type Secret = "access_token" | "refresh_token" | "code_verifier";

/** Each secret of a connection is encrypted bound to its organization, its row and what it is. */
export function secretContext(connection: { orgId: string; id: string }, secret: Secret) {
  return `integration_connections:${connection.orgId}:${connection.id}:${secret}`;
}

export function encryptSecret(connection: { orgId: string; id: string }, secret: Secret, value: string) {
  return encrypt(value, secretContext(connection, secret));
}

export function decryptSecret(connection: { orgId: string; id: string }, secret: Secret, value: string) {
  return decrypt(value, secretContext(connection, secret));
}

/** The browser callback every connection uses unless its start named another redirect_uri. */
export function defaultRedirectUri(): string {
  return `${publicUrl()}/api/v1/integrations/callback`;
}

export function connectionJson(connection: IntegrationConnection): ConnectionJson {
  return {
    id: connection.id,
    provider: connection.provider as ProviderId,
    namespace_id: connection.namespaceId,
    status: connection.status as ConnectionJson["status"],
    options: connection.options as Record<string, unknown>,
    account: connection.account,
    last_sync_at: connection.lastSyncAt?.toISOString() ?? null,
    documents_synced: connection.documentCount,
    last_error: connection.lastError,
    created_at: connection.createdAt.toISOString(),
    updated_at: connection.updatedAt.toISOString(),
  };
}

/**
 * Connecting, syncing and disconnecting write and delete memories of the namespace: besides
 * INTEGRATION_MANAGE (the operation's permission), the principal must be allowed to write there.
 */
function assertMayWrite(principal: Principal) {
  assertPermission(principal, "NAMESPACE_WRITE", () =>
    principal.kind === "api_key" ? missingPermissionMessage(principal, "NAMESPACE_WRITE") : "",
  );
}

function visibleConnections(principal: Principal) {
  return { orgId: principal.orgId, namespace: namespaceAccess(principal) };
}

export async function getConnection(principal: Principal, id: string) {
  const prisma = await db();
  const connection = await prisma.integrationConnection.findFirst({ where: { id, ...visibleConnections(principal) } });
  if (!connection) throw notFound(`Integration connection ${id}`);
  return connection;
}

export async function listConnections(principal: Principal, query: ListConnectionsQuery) {
  const prisma = await db();
  const where = {
    ...visibleConnections(principal),
    ...(query.namespace_id && { namespaceId: query.namespace_id }),
  };
  const [items, total] = await Promise.all([
    prisma.integrationConnection.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      ...pageWindow(query),
    }),
    prisma.integrationConnection.count({ where }),
  ]);
  return { items, total };
}

/**
 * Starts connecting a namespace: a pending connection and the provider's authorization URL, with a
 * single-use state (only its hash is stored) bound to this organization, this connection and the
 * redirect URI, valid for 10 minutes, and a PKCE verifier where the provider takes one.
 */
export async function startConnection(principal: Principal, body: CreateConnectionBody) {
  assertMayWrite(principal);
  const provider = PROVIDERS[body.provider];
  const options = (body.options ?? {}) as Prisma.InputJsonObject;
  const namespace = await resolveTarget(principal, body);
  const client = await requireClient(principal.orgId, provider);
  const id = newId("int");
  const state = randomToken();
  const codeVerifier = provider.pkce ? randomToken() : null;
  const redirectUri = body.redirect_uri ?? defaultRedirectUri();
  const row = { orgId: principal.orgId, id };
  const prisma = await db();
  const connection = await prisma.$transaction(async (tx) => {
    const created = await tx.integrationConnection.create({
      data: {
        ...row,
        namespaceId: namespace.id,
        provider: provider.id,
        status: "pending",
        options,
        redirectUri,
        stateHash: hashState(state),
        stateExpiresAt: new Date(Date.now() + STATE_TTL_MS),
        codeVerifierEncrypted: codeVerifier ? encryptSecret(row, "code_verifier", codeVerifier) : null,
        createdByUserId: principal.kind === "member" ? principal.userId : null,
        createdByKeyId: principal.kind === "api_key" ? principal.keyId : null,
      },
    });
    await recordAudit(tx, {
      orgId: principal.orgId,
      actor: actorOf(principal),
      action: "integration.start",
      targetType: "integration_connection",
      targetId: id,
      details: { provider: provider.id, namespace_id: namespace.id, options },
    });
    return created;
  });
  const url = authorizationUrl(provider, providerEndpoints(provider).authUrl, client, {
    redirectUri,
    state,
    codeVerifier,
  });
  return { connection, authorizationUrl: url };
}

/**
 * A new authorization for an existing connection (its access was refused or revoked, or another account
 * should be used): a fresh single-use state and verifier, the same connection. Its documents stay, so the
 * sync after completing changes only what differs.
 */
export async function reconnectConnection(principal: Principal, id: string, body: ReconnectConnectionBody) {
  assertMayWrite(principal);
  const connection = await getConnection(principal, id);
  const provider = PROVIDERS[connection.provider as ProviderId];
  const client = await requireClient(principal.orgId, provider);
  const state = randomToken();
  const codeVerifier = provider.pkce ? randomToken() : null;
  const redirectUri = body.redirect_uri ?? defaultRedirectUri();
  const prisma = await db();
  const updated = await prisma.$transaction(async (tx) => {
    // updateMany: a connection deleted meanwhile is not found, not a database error.
    const [saved] = await tx.integrationConnection.updateManyAndReturn({
      where: { id: connection.id, orgId: connection.orgId },
      data: {
        redirectUri,
        stateHash: hashState(state),
        stateExpiresAt: new Date(Date.now() + STATE_TTL_MS),
        codeVerifierEncrypted: codeVerifier ? encryptSecret(connection, "code_verifier", codeVerifier) : null,
        // A new flow: whichever browser started the last one has nothing to do with this one.
        browserBindingHash: null,
      },
    });
    if (!saved) throw notFound(`Integration connection ${id}`);
    await recordAudit(tx, {
      orgId: connection.orgId,
      actor: actorOf(principal),
      action: "integration.reconnect",
      targetType: "integration_connection",
      targetId: connection.id,
      details: { provider: provider.id, namespace_id: connection.namespaceId },
    });
    return saved;
  });
  const url = authorizationUrl(provider, providerEndpoints(provider).authUrl, client, {
    redirectUri,
    state,
    codeVerifier,
  });
  return { connection: updated, authorizationUrl: url };
}

async function requireClient(orgId: string, provider: (typeof PROVIDERS)[ProviderId]) {
  const client = await oauthClientFor(orgId, provider.id);
  if (client) return client;
  throw new ConflictError(
    `${provider.name} is not configured: set ${provider.settingsPrefix}_CLIENT_ID and ` +
      `${provider.settingsPrefix}_CLIENT_SECRET, or add your organization's OAuth client in the console.`,
  );
}

const BAD_STATE =
  "The state is wrong, already used or expired (it is valid once, for 10 minutes): start the connection again.";

/**
 * Completes the flow through the API: the state must be this connection's, of the principal's
 * organization, unused and unexpired. It is spent before the code is exchanged, so it never works twice.
 */
export async function completeConnection(principal: Principal, id: string, body: CompleteConnectionBody) {
  assertMayWrite(principal);
  const connection = await getConnection(principal, id);
  const spent = await spendState(connection.orgId, body.state, connection.id);
  if (!spent) throw new InvalidError(BAD_STATE, [{ field: "body.state", message: "is not valid for this connection" }]);
  return finishConnection(spent, body.code, actorOf(principal));
}

/** What the browser that comes back through the callback brings: its flow cookie and its console session. */
export interface CallbackBrowser {
  /** The nonce of the cookie set when this connection's flow started in this browser, if any. */
  nonce(connectionId: string): string | undefined;
  /** The person signed in to the console in this browser, as a member of that organization, if they are one. */
  member(orgId: string): Promise<MemberPrincipal | null>;
}

/** The cookie that binds a console-started flow to its browser (HttpOnly; sent only to the callback). */
export function browserBindingCookie(connectionId: string): string {
  return `memgw_integration_${connectionId}`;
}

const UNBOUND_CALLBACK =
  "Finish connecting in the browser where you started it, signed in to the console as a member of its " +
  "organization who manages integrations; an application that started it through the API completes it " +
  "with POST /integrations/connections/{id}/complete.";

/**
 * The browser's way back from the provider (GET /api/v1/integrations/callback): the state names the
 * connection, and the browser must be the one that started it. A state alone is a bearer value anyone can
 * forward: without this, an attacker could send their consent link to someone else and have that person's
 * account connected to the attacker's namespace. So a flow started in the console completes only with the
 * nonce cookie set then; one started through the API only for a signed-in member of its organization who
 * manages integrations and may see the namespace. Anyone else is refused, and the state is not spent.
 * Returns where to send the person: the organization's integrations page, saying how it went.
 */
export async function completeFromCallback(
  parameters: { code?: string; state?: string; error?: string },
  browser: CallbackBrowser,
) {
  const prisma = await db();
  const pending = parameters.state
    ? await prisma.integrationConnection.findUnique({
        where: { stateHash: hashState(parameters.state) },
        include: { org: { select: { slug: true } } },
      })
    : null;
  if (!pending || !pending.stateExpiresAt || pending.stateExpiresAt <= new Date())
    throw new InvalidError(BAD_STATE, [{ field: "query.state", message: "is not valid" }]);
  if (!(await startedInThisBrowser(pending, browser))) throw new ForbiddenError(UNBOUND_CALLBACK);
  const spent = await spendState(pending.orgId, parameters.state!, pending.id);
  if (!spent) throw new InvalidError(BAD_STATE, [{ field: "query.state", message: "is not valid" }]);
  const page = new URL(`${publicUrl()}/${pending.org.slug}/integrations`);
  const actor = creatorOf(spent);
  try {
    if (parameters.error || !parameters.code) {
      const name = PROVIDERS[spent.provider as ProviderId].name;
      // The provider's error code, as far as it is one (the query string is anyone's to write).
      const code = /^[a-z0-9_.-]{1,64}$/i.test(parameters.error ?? "") ? parameters.error : undefined;
      const why =
        code === "access_denied"
          ? "access was denied"
          : code
            ? `error ${code}`
            : parameters.error
              ? "an error it did not name"
              : "no code came back";
      await markConnection(spent, { lastError: `${name} did not authorize the connection (${why}): connect again.` });
      throw new InvalidError(`${name} did not authorize the connection (${why}).`);
    }
    await finishConnection(spent, parameters.code, actor);
    page.searchParams.set("connected", spent.id);
  } catch (error) {
    // Only what the gateway itself says reaches the page; anything else is logged.
    if (!(error instanceof DomainError))
      console.error(`[memgw] completing ${spent.id} failed:`, (error as Error).message);
    page.searchParams.set("error", error instanceof DomainError ? error.message : "Connecting failed: try again.");
  }
  return page;
}

async function startedInThisBrowser(connection: IntegrationConnection, browser: CallbackBrowser): Promise<boolean> {
  if (connection.browserBindingHash) {
    const nonce = browser.nonce(connection.id);
    return Boolean(nonce) && hashState(nonce!) === connection.browserBindingHash;
  }
  const member = await browser.member(connection.orgId);
  if (!member?.permissions.includes("INTEGRATION_MANAGE")) return false;
  return getConnection(member, connection.id).then(
    () => true,
    () => false,
  );
}

/**
 * Binds a connection's pending flow to the browser that started it in the console: returns the nonce for
 * its cookie (browserBindingCookie), of which only the hash is kept.
 */
export async function bindConnectionToBrowser(principal: Principal, id: string): Promise<string> {
  const connection = await getConnection(principal, id);
  const nonce = randomToken();
  const prisma = await db();
  await prisma.integrationConnection.updateMany({
    where: { id: connection.id, orgId: connection.orgId },
    data: { browserBindingHash: hashState(nonce) },
  });
  return nonce;
}

function creatorOf(connection: IntegrationConnection): Actor {
  if (connection.createdByUserId) return { type: "user", id: connection.createdByUserId };
  if (connection.createdByKeyId) return { type: "api_key", id: connection.createdByKeyId };
  return SYSTEM_ACTOR;
}

/** Spends a state (of a new connection or a reconnect): at most one caller ever gets the connection back for it. */
async function spendState(orgId: string, state: string, connectionId: string) {
  const prisma = await db();
  const spent = await prisma.integrationConnection.updateManyAndReturn({
    where: {
      id: connectionId,
      orgId,
      stateHash: hashState(state),
      stateExpiresAt: { gt: new Date() },
    },
    data: { stateHash: null, stateExpiresAt: null, browserBindingHash: null },
  });
  return spent[0] ?? null;
}

async function markConnection(connection: IntegrationConnection, data: { lastError: string }) {
  const prisma = await db();
  await prisma.integrationConnection.updateMany({ where: { id: connection.id, orgId: connection.orgId }, data });
}

/** Exchanges the code, stores the tokens encrypted, marks the connection active and queues its first sync. */
async function finishConnection(connection: IntegrationConnection, code: string, actor: Actor) {
  const provider = PROVIDERS[connection.provider as ProviderId];
  const client = await oauthClientFor(connection.orgId, provider.id);
  if (!client) throw new ConflictError(`${provider.name} is no longer configured for this organization.`);
  const codeVerifier = connection.codeVerifierEncrypted
    ? decryptSecret(connection, "code_verifier", connection.codeVerifierEncrypted)
    : null;
  let tokens;
  try {
    tokens = await exchangeCode(provider, providerEndpoints(provider).tokenUrl, client, {
      code,
      redirectUri: connection.redirectUri,
      codeVerifier,
    });
  } catch (error) {
    const message =
      error instanceof GrantRefusedError
        ? `${provider.name} refused the authorization code (${error.providerError}): connect again.`
        : `${provider.name} could not be reached to finish connecting: ${(error as Error).message}`;
    await markConnection(connection, { lastError: message });
    if (error instanceof GrantRefusedError) throw new InvalidError(message, [{ field: "body.code", message }]);
    throw new UpstreamError(message);
  }
  const prisma = await db();
  const active = await prisma.$transaction(async (tx) => {
    const [updated] = await tx.integrationConnection.updateManyAndReturn({
      where: { id: connection.id, orgId: connection.orgId },
      data: {
        status: "active",
        codeVerifierEncrypted: null,
        accessTokenEncrypted: encryptSecret(connection, "access_token", tokens.accessToken),
        refreshTokenEncrypted: tokens.refreshToken
          ? encryptSecret(connection, "refresh_token", tokens.refreshToken)
          : null,
        tokenExpiresAt: tokens.expiresAt,
        account: tokens.account,
        lastError: null,
      },
    });
    if (!updated) throw notFound(`Integration connection ${connection.id}`);
    await recordAudit(tx, {
      orgId: connection.orgId,
      actor,
      action: "integration.connect",
      targetType: "integration_connection",
      targetId: connection.id,
      details: { provider: provider.id, namespace_id: connection.namespaceId, account: tokens.account },
    });
    return updated;
  });
  await enqueueJob({
    kind: SYNC_JOB_KIND,
    orgId: connection.orgId,
    key: syncJobKey(connection.id),
    payload: { connectionId: connection.id },
  });
  return active;
}

/** Queues a sync now; 409 while one is queued or running, or before the connection is completed. */
export async function requestSync(principal: Principal, id: string) {
  assertMayWrite(principal);
  const connection = await getConnection(principal, id);
  if (connection.status === "pending" || connection.status === "revoked" || !connection.accessTokenEncrypted) {
    throw new ConflictError(
      connection.status === "revoked"
        ? "The provider revoked this connection's access: reconnect it first."
        : "This connection is not authorized yet: complete it first.",
    );
  }
  const queued = await enqueueJob({
    kind: SYNC_JOB_KIND,
    orgId: connection.orgId,
    key: syncJobKey(connection.id),
    payload: { connectionId: connection.id },
  });
  if (!queued) {
    const job = await activeJob(syncJobKey(connection.id));
    throw new ConflictError(
      `A sync of this connection is already ${job?.status === "running" ? "running" : "queued"}.`,
    );
  }
  const prisma = await db();
  await recordAudit(prisma, {
    orgId: connection.orgId,
    actor: actorOf(principal),
    action: "integration.sync",
    targetType: "integration_connection",
    targetId: connection.id,
    details: { provider: connection.provider },
  });
  return connection;
}

/** The memories a connection brought (its documents, and any a sync stored before it could record them). */
async function memoriesOfConnection(tx: Tx, connection: IntegrationConnection): Promise<string[]> {
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT memory_id AS id FROM integration_documents WHERE connection_id = $1 AND org_id = $2
     UNION
     SELECT id FROM memories WHERE org_id = $2 AND namespace_id = $3 AND metadata->>'connection_id' = $1`,
    connection.id,
    connection.orgId,
    connection.namespaceId,
  );
  return rows.map((row) => row.id);
}

/** How many memories deleting the connection would take (the console's confirmation says it). */
export async function connectionMemoryCount(principal: Principal, id: string): Promise<number> {
  const connection = await getConnection(principal, id);
  const prisma = await db();
  return (await memoriesOfConnection(prisma, connection)).length;
}

const REVOKE_TIMEOUT_MS = 10_000;

/**
 * Revokes the token at the provider (where it offers revocation; a provider that cannot be reached does
 * not keep the connection alive), deletes the connection with its tokens and, unless kept, every memory it
 * brought. A sync under way notices the connection is gone and stops.
 */
export async function deleteConnection(principal: Principal, id: string, keepMemories: boolean) {
  assertMayWrite(principal);
  const connection = await getConnection(principal, id);
  const provider = PROVIDERS[connection.provider as ProviderId];
  let tokenRevoked = false;
  if (connection.accessTokenEncrypted) {
    const client = await oauthClientFor(connection.orgId, provider.id);
    if (client) {
      const revocation = provider.module.revoke({
        endpoints: providerEndpoints(provider),
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        accessToken: decryptSecret(connection, "access_token", connection.accessTokenEncrypted),
      });
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error("timed out")), REVOKE_TIMEOUT_MS).unref(),
      );
      tokenRevoked = await Promise.race([revocation, timeout]).then(
        () => true,
        (error) => {
          console.error(
            `[memgw] revoking ${provider.name} token of ${connection.id} failed: ${(error as Error).message}`,
          );
          return false;
        },
      );
    }
  }
  await cancelQueuedJob(syncJobKey(connection.id));
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const memoryIds = await memoriesOfConnection(tx, connection);
    const chunksDeleted = keepMemories
      ? 0
      : await deleteMemories(tx, connection.orgId, connection.namespaceId, memoryIds);
    const { count } = await tx.integrationConnection.deleteMany({
      where: { id: connection.id, orgId: connection.orgId },
    });
    // Deleted by a concurrent request: that one reports it; this one found nothing to delete.
    if (count === 0) throw notFound(`Integration connection ${connection.id}`);
    const result = {
      deleted: true as const,
      memories_deleted: keepMemories ? 0 : memoryIds.length,
      memories_kept: keepMemories ? memoryIds.length : 0,
      token_revoked: tokenRevoked,
    };
    // Deleting the memories it brought is a deletion request like a forget: on record with a receipt.
    const erasure = keepMemories
      ? undefined
      : await recordErasure(tx, principal, {
          kind: "integration.delete",
          namespaceId: connection.namespaceId,
          namespaces: [
            {
              namespaceId: connection.namespaceId,
              name: (await tx.namespace.findUnique({ where: { id: connection.namespaceId } }))?.name ?? "",
              memoriesDeleted: memoryIds.length,
              chunksDeleted,
            },
          ],
          selector: { connection_id: connection.id },
        });
    await recordAudit(tx, {
      orgId: connection.orgId,
      actor: actorOf(principal),
      action: "integration.delete",
      targetType: "integration_connection",
      targetId: connection.id,
      details: {
        provider: provider.id,
        namespace_id: connection.namespaceId,
        ...result,
        ...(erasure && { erasure_id: erasure.id }),
      },
    });
    return result;
  });
}
