// A connection's sync, run as a durable job (lib/jobs/queue.ts): every document in the provider's reach
// becomes one memory of the connection's namespace, with metadata source, source_id, source_url, title,
// updated_at and connection_id. It is incremental: a document whose version did not change costs no
// request for its text and no embedding, a changed one replaces its memory's content in place, and one
// no longer listed is forgotten. Each document is applied on its own, so a sync that dies half-way
// (kill -9) is simply run again: what it applied is unchanged the second time, and a memory stored
// without its document row (the moment between the two writes) is removed at the next start.
import { createHash } from "node:crypto";
import { integrationPrincipal, type IntegrationPrincipal } from "@/lib/auth/principal";
import { NotFoundError } from "@/lib/errors";
import { recordEvents, type NewEvent } from "@/lib/event-recording/record-events";
import { db } from "@/lib/db";
import { Prisma, type IntegrationConnection } from "@/lib/generated/prisma/client";
import { PermanentJobError, RetryLaterError, type ClaimedJob } from "@/lib/jobs/queue";
import { deleteMemories } from "@/lib/memory/store/deletion";
import { remember } from "@/lib/memory/write/remember";
import { replaceMemoryContent } from "@/lib/memory/write/replace-memory-content";
import { LIMITS } from "@/lib/memory/common/schemas";
import { hasVisibleText } from "@/lib/validation/strings";
import { oauthClientFor } from "./clients";
import { decryptSecret, encryptSecret } from "./connections/connection-secrets";
import { SYNC_JOB_KIND } from "./connections/sync-job";
import { GrantRefusedError, refreshAccessToken } from "./oauth";
import {
  ProviderRateLimitedError,
  ProviderUnauthorizedError,
  type DocumentRef,
  type ProviderId,
  type ProviderReader,
} from "./provider";
import { PROVIDERS, providerEndpoints, type ProviderDefinition } from "./providers";

/** A Retry-After up to this long is waited for within the sync; a longer one re-queues the job. */
const MAX_INLINE_WAIT_SECONDS = 30;
/** How many rate-limit waits one run sits through before it re-queues itself. */
const MAX_INLINE_WAITS = 5;
/** Refresh an access token this close to its expiry before using it. */
const REFRESH_MARGIN_MS = 60_000;

/** The connection was deleted while its sync ran: stop, and store nothing more. */
class ConnectionGoneError extends Error {}

export interface SyncReport {
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  documents: number;
}

/** The job runners of this area, for the worker (lib/startup.ts) and for tests (runDueJobs). */
export const integrationJobRunners = { [SYNC_JOB_KIND]: (job: ClaimedJob) => runSyncJob(job) };

async function runSyncJob(job: ClaimedJob): Promise<void> {
  const prisma = await db();
  const connectionId = String(job.payload.connectionId);
  const connection = await prisma.integrationConnection.findFirst({
    where: { id: connectionId, ...(job.orgId && { orgId: job.orgId }) },
  });
  // Deleted, or not (or no longer) authorized: nothing to sync.
  if (!connection?.accessTokenEncrypted || connection.status === "pending" || connection.status === "revoked") return;
  await setStatus(connection, { status: "syncing" });
  try {
    const report = await syncConnection(connection);
    await setStatus(
      connection,
      { status: "active", lastSyncAt: new Date(), documentCount: report.documents, lastError: null },
      { type: "integration.sync.completed", data: { ...syncEventData(connection), ...report } },
    );
  } catch (error) {
    if (error instanceof ConnectionGoneError) return;
    const message = redact(connection, (error as Error).message ?? String(error));
    if (error instanceof ReconnectError) {
      // Unless the connection was reconnected meanwhile (its tokens are no longer the ones refused).
      const prisma = await db();
      await prisma.$transaction(async (tx) => {
        await tx.integrationConnection.updateMany({
          where: { id: connection.id, orgId: connection.orgId, accessTokenEncrypted: connection.accessTokenEncrypted },
          data: { status: error.status, lastError: message },
        });
        await recordEvents(tx, connection.orgId, [
          { type: "integration.sync.failed", data: { ...syncEventData(connection), error: message, retrying: false } },
        ]);
      });
      throw new PermanentJobError(message);
    }
    if (error instanceof RetryLaterError) {
      await setStatus(connection, { status: "active", lastError: message });
      throw error;
    }
    console.error(`[memgw] sync of ${connection.provider} connection ${connection.id} failed: ${message}`);
    await setStatus(
      connection,
      { status: "error", lastError: `The last sync failed: ${message}` },
      {
        type: "integration.sync.failed",
        data: { ...syncEventData(connection), error: message, retrying: job.attempts < job.maxAttempts },
      },
    );
    throw new Error(message, { cause: error });
  }
}

/** The person must connect again: the provider refused the refresh, or revoked the access. */
class ReconnectError extends Error {
  constructor(
    readonly status: "error" | "revoked",
    message: string,
  ) {
    super(message);
  }
}

type ConnectionChange = Partial<
  Pick<
    IntegrationConnection,
    | "status"
    | "lastSyncAt"
    | "documentCount"
    | "lastError"
    | "accessTokenEncrypted"
    | "refreshTokenEncrypted"
    | "tokenExpiresAt"
  >
>;

/** Changes the connection's status, and records `event` with the change when given. */
async function setStatus(
  connection: IntegrationConnection,
  data: ConnectionChange,
  event?: Omit<NewEvent, "namespaceId">,
) {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const { count } = await tx.integrationConnection.updateMany({
      where: { id: connection.id, orgId: connection.orgId },
      data,
    });
    if (event && count > 0)
      await recordEvents(tx, connection.orgId, [{ ...event, namespaceId: connection.namespaceId }]);
  });
}

/** What a sync's events say of its connection. */
function syncEventData(connection: IntegrationConnection) {
  return { connection_id: connection.id, provider: connection.provider };
}

/** An error message as it may be shown and logged: never a token, whatever a provider or SDK put in it. */
function redact(connection: IntegrationConnection, message: string): string {
  let safe = message;
  for (const [secret, encrypted] of [
    ["access_token", connection.accessTokenEncrypted],
    ["refresh_token", connection.refreshTokenEncrypted],
  ] as const) {
    if (!encrypted) continue;
    try {
      const token = decryptSecret(connection, secret, encrypted);
      if (token) safe = safe.split(token).join("[token]");
    } catch {
      // A token that does not decrypt cannot be in the message either.
    }
  }
  return safe.slice(0, 1000);
}

/** Runs one sync of a connection: refreshes its token once when refused, waits out short rate limits. */
export async function syncConnection(connection: IntegrationConnection): Promise<SyncReport> {
  const provider = PROVIDERS[connection.provider as ProviderId];
  let tokens = await currentTokens(connection, provider);
  let refreshed = false;
  let waits = 0;
  for (;;) {
    const reader = provider.module.reader({
      accessToken: tokens.accessToken,
      endpoints: providerEndpoints(provider),
      options: connection.options as Record<string, unknown>,
    });
    try {
      return await applyDocuments(connection, reader);
    } catch (error) {
      if (error instanceof ProviderUnauthorizedError) {
        if (refreshed || !tokens.refreshToken) {
          throw new ReconnectError(
            "revoked",
            `${provider.name} no longer accepts this connection's access (it was revoked or expired): ` +
              "reconnect to sync again.",
          );
        }
        refreshed = true;
        tokens = await refresh(connection, provider, tokens.refreshToken);
        continue;
      }
      if (error instanceof ProviderRateLimitedError) {
        const seconds = Math.max(1, error.retryAfterSeconds);
        if (seconds > MAX_INLINE_WAIT_SECONDS || waits >= MAX_INLINE_WAITS) {
          throw new RetryLaterError(
            seconds * 1000,
            `${provider.name} is rate limiting this connection; the sync goes on in ${seconds} s.`,
          );
        }
        waits += 1;
        await new Promise((resume) => setTimeout(resume, seconds * 1000));
        continue;
      }
      throw error;
    }
  }
}

async function currentTokens(connection: IntegrationConnection, provider: ProviderDefinition) {
  const accessToken = decryptSecret(connection, "access_token", connection.accessTokenEncrypted!);
  const refreshToken = connection.refreshTokenEncrypted
    ? decryptSecret(connection, "refresh_token", connection.refreshTokenEncrypted)
    : null;
  const expiring = connection.tokenExpiresAt && connection.tokenExpiresAt.getTime() < Date.now() + REFRESH_MARGIN_MS;
  if (expiring && refreshToken) return refresh(connection, provider, refreshToken);
  return { accessToken, refreshToken };
}

/** Exchanges the refresh token for a new access token and stores both (providers may rotate the refresh token). */
async function refresh(connection: IntegrationConnection, provider: ProviderDefinition, refreshToken: string) {
  const client = await oauthClientFor(connection.orgId, provider.id);
  if (!client)
    throw new ReconnectError("error", `${provider.name} is no longer configured: reconnect after setting it up.`);
  let tokens;
  try {
    tokens = await refreshAccessToken(provider, providerEndpoints(provider).tokenUrl, client, refreshToken);
  } catch (error) {
    if (error instanceof GrantRefusedError) {
      throw new ReconnectError(
        "error",
        `${provider.name} refused to renew this connection's access (${error.providerError}): reconnect to sync again.`,
      );
    }
    throw error;
  }
  const next = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken ?? refreshToken };
  const accessTokenEncrypted = encryptSecret(connection, "access_token", next.accessToken);
  const refreshTokenEncrypted = encryptSecret(connection, "refresh_token", next.refreshToken);
  const prisma = await db();
  // Only over the tokens this run started with: a reconnect meanwhile brought newer ones, which win.
  const { count } = await prisma.integrationConnection.updateMany({
    where: { id: connection.id, orgId: connection.orgId, accessTokenEncrypted: connection.accessTokenEncrypted },
    data: { accessTokenEncrypted, refreshTokenEncrypted, tokenExpiresAt: tokens.expiresAt },
  });
  if (count === 0) throw new ConnectionGoneError();
  connection.accessTokenEncrypted = accessTokenEncrypted;
  connection.refreshTokenEncrypted = refreshTokenEncrypted;
  return next;
}

/**
 * Text as the database and the string rules accept it, whatever a provider sent: no U+0000 (PostgreSQL
 * refuses it) and no unpaired surrogates (replaced, as `toWellFormed` does), at most `max` characters.
 */
function storable(text: string, max: number): string {
  return text.split("\u0000").join("").toWellFormed().slice(0, max);
}

/** A source id as stored: a long one is cut and keeps a hash of the whole, so that two never collide. */
function sourceKey(sourceId: string): string {
  const clean = storable(sourceId, Infinity);
  if (clean.length <= URL_CHARS) return clean;
  return `${clean.slice(0, URL_CHARS - 65)}#${createHash("sha256").update(clean).digest("hex")}`;
}

const TITLE_CHARS = 500;
const URL_CHARS = 2_000;

type DocumentMemory = ReturnType<typeof documentMemory>;

/**
 * The memory a document becomes: its text (cut to what a memory may hold) and where it came from. A document
 * with nothing a person would see (empty, white space, or only invisible characters such as U+200B: the rule
 * remember's API applies) is remembered by its title, or as "(untitled)", so that it is still found by its
 * source and not fetched again until it changes.
 */
function documentMemory(connection: IntegrationConnection, ref: DocumentRef, text: string) {
  const title = storable(ref.title, TITLE_CHARS).trim();
  const body = storable(text, LIMITS.contentChars).trim();
  const content = [body, title].find(hasVisibleText) ?? "(untitled)";
  const metadata = {
    source: connection.provider,
    source_id: ref.sourceId,
    source_url: storable(ref.url, URL_CHARS),
    title,
    updated_at: storable(ref.updatedAt, 100),
    connection_id: connection.id,
  };
  return { content, metadata };
}

async function applyDocuments(connection: IntegrationConnection, reader: ProviderReader): Promise<SyncReport> {
  const prisma = await db();
  const principal = integrationPrincipal(connection);
  await removeUnrecordedMemories(connection);
  const stored = new Map(
    (
      await prisma.integrationDocument.findMany({
        where: { connectionId: connection.id, orgId: connection.orgId },
        select: { sourceId: true, memoryId: true, version: true },
      })
    ).map((document) => [document.sourceId, document]),
  );
  const report: SyncReport = { added: 0, updated: 0, unchanged: 0, deleted: 0, documents: 0 };
  const listed = new Set<string>();
  for await (const listing of reader.listDocuments()) {
    // The reader gets its own ref back; what is stored and compared is storable.
    const ref = {
      ...listing,
      sourceId: sourceKey(listing.sourceId),
      version: storable(listing.version, 500),
    };
    if (listed.has(ref.sourceId)) continue;
    const existing = stored.get(ref.sourceId);
    if (existing && existing.version === ref.version) {
      listed.add(ref.sourceId);
      report.unchanged += 1;
      continue;
    }
    const text = await reader.documentText(listing);
    // Gone between the listing and now: not listed, so forgotten below.
    if (text === null) continue;
    listed.add(ref.sourceId);
    await assertConnectionExists(connection);
    const memory = documentMemory(connection, ref, text);
    if (existing && (await replaced(principal, existing.memoryId, memory))) {
      await prisma.integrationDocument.update({
        where: { connectionId_sourceId: { connectionId: connection.id, sourceId: ref.sourceId } },
        data: { version: ref.version, syncedAt: new Date() },
      });
      report.updated += 1;
    } else {
      const { memories } = await remember(
        principal,
        { namespace_id: connection.namespaceId },
        [memory],
        {},
        {
          // A document is stored as the provider has it, even when a memory already says the same.
          allowDuplicate: true,
        },
      );
      try {
        await prisma.integrationDocument.create({
          data: {
            connectionId: connection.id,
            sourceId: ref.sourceId,
            orgId: connection.orgId,
            memoryId: memories[0].id,
            version: ref.version,
          },
        });
      } catch (error) {
        // The connection was deleted while the memory was embedded: the memory goes with it.
        await prisma.$transaction((tx) =>
          deleteMemories(tx, connection.orgId, connection.namespaceId, [memories[0].id], { reason: "sync" }),
        );
        await assertConnectionExists(connection);
        throw error;
      }
      report.added += 1;
    }
  }
  const gone = [...stored.values()].filter((document) => !listed.has(document.sourceId));
  if (gone.length > 0) {
    await prisma.$transaction(async (tx) => {
      await deleteMemories(
        tx,
        connection.orgId,
        connection.namespaceId,
        gone.map((document) => document.memoryId),
        { reason: "sync" },
      );
      await tx.integrationDocument.deleteMany({
        where: { connectionId: connection.id, orgId: connection.orgId, sourceId: { in: gone.map((d) => d.sourceId) } },
      });
    });
    report.deleted = gone.length;
  }
  report.documents = await prisma.integrationDocument.count({
    where: { connectionId: connection.id, orgId: connection.orgId },
  });
  return report;
}

/**
 * Replaces the document's memory; false when it is gone (forgotten by hand meanwhile: its document row went
 * with it), and the document is then stored anew.
 */
async function replaced(principal: IntegrationPrincipal, memoryId: string, memory: DocumentMemory): Promise<boolean> {
  try {
    await replaceMemoryContent(principal, memoryId, memory);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

async function assertConnectionExists(connection: IntegrationConnection) {
  const prisma = await db();
  const exists = await prisma.integrationConnection.count({ where: { id: connection.id, orgId: connection.orgId } });
  if (exists === 0) throw new ConnectionGoneError();
}

/**
 * Memories of this connection without a document row: stored by a sync that died before it recorded
 * them. Removed before the sync stores the document again, so a restart never duplicates one.
 */
async function removeUnrecordedMemories(connection: IntegrationConnection) {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const orphans = await tx.$queryRaw<{ id: string }[]>(
      Prisma.sql`SELECT m.id FROM memories m
       WHERE m.org_id = ${connection.orgId} AND m.namespace_id = ${connection.namespaceId}
         AND m.metadata->>'connection_id' = ${connection.id}
         AND NOT EXISTS (SELECT 1 FROM integration_documents d
                         WHERE d.connection_id = ${connection.id} AND d.memory_id = m.id)`,
    );
    await deleteMemories(
      tx,
      connection.orgId,
      connection.namespaceId,
      orphans.map((row) => row.id),
      { reason: "sync" },
    );
  });
}
