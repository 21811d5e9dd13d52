import { createHash } from "node:crypto";
import type { ActivityNote } from "@/lib/activity/activity";
import { ConflictError, notFound } from "@/lib/errors";
import { pageWindow, type PaginationQuery } from "@/lib/http/pagination";
import { keepAnswerWithWrite } from "@/lib/http/request-writes";
import { namespaceAccess, requesterOf, type Principal } from "@/lib/auth/principal";
import type { Scopes } from "@/lib/auth/scopes";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { chunkText } from "./chunking";
import { embedder } from "./embeddings";
import { archiveCurrentVersion, authorOf, historyPage, VERSIONED_FIELDS, type VersionedField } from "./history";
import { effectiveScopes } from "./scopes";
import {
  memoryJson,
  type MemoryItem,
  type MemoryRow,
  type Metadata,
  type RememberBody,
  type Target,
} from "./schemas";
import type { ForgetBody } from "./forget-body";
import { memoryFilterSql, TEXT_SEARCH_CONFIG, vectorLiteral, type ChunkFilter } from "./sql";
import { noteSearchGrowth } from "./search-maintenance";
import { deleteMemories, subtractScopeStatistics, subtractTermStatistics } from "./deletion";
import { crashPoint, WriteIntent } from "./write-intents";

export { deleteMemories, withdrawKeptAnswers } from "./deletion";

// Short statements: PGlite has one session, so a write never holds every other request for long.
const ROWS_PER_STATEMENT = 100;
// Chunk rows cost far more than memory rows (vector index, postings, statistics).
const CHUNKS_PER_STATEMENT = 32;
/**
 * A batch is written a few memories at a time, each group in a transaction of its own: PGlite has one
 * connection, and one transaction for a whole batch of 100 × 52,000 characters (3,000 chunks) held every
 * other write of every organization for over a minute. One embedding call's worth of chunks per group
 * (an organization's remember waits for at most one such group of another's: well under a second).
 */
const CHUNKS_PER_TRANSACTION = 32;

/** What remember stores for one memory: an item of a request, or a conversation's message (with its role). */
export type RememberItem = MemoryItem & { role?: string };

export interface RememberOptions {
  /** The items are a conversation's next turns, in order: they get the session's next positions. */
  sessionId?: string;
  /** Store content identical to an existing memory again instead of returning that memory. */
  allowDuplicate?: boolean;
}

interface PreparedMemory {
  id: string;
  content: string;
  metadata: Metadata;
  scopes: Scopes;
  identityId: string | null;
  role: string | null;
  occurredAt: Date;
  expiresAt: Date | null;
  contentHash: string;
  chunks: string[];
}

/**
 * The items of a remember request: a single `content`, a batch, or a conversation's messages, with the
 * top-level fields as defaults.
 */
export function memoryItems(body: RememberBody): RememberItem[] {
  const defaults = {
    metadata: body.metadata,
    scopes: body.scopes,
    identity_id: body.identity_id,
    occurred_at: body.occurred_at,
    expires_at: body.expires_at,
    ttl_seconds: body.ttl_seconds,
  };
  if (body.content !== undefined) return [{ ...defaults, content: body.content }];
  if (body.messages !== undefined) {
    return body.messages.map((message) => ({
      ...defaults,
      content: message.content,
      role: message.role,
      metadata: message.metadata ?? defaults.metadata,
      occurred_at: message.occurred_at ?? defaults.occurred_at,
    }));
  }
  return body.memories!.map((item) => {
    const ownExpiry = item.expires_at !== undefined || item.ttl_seconds !== undefined;
    return {
      content: item.content,
      metadata: item.metadata ?? defaults.metadata,
      scopes: item.scopes ?? defaults.scopes,
      identity_id: item.identity_id ?? defaults.identity_id,
      occurred_at: item.occurred_at ?? defaults.occurred_at,
      expires_at: ownExpiry ? item.expires_at : defaults.expires_at,
      ttl_seconds: ownExpiry ? item.ttl_seconds : defaults.ttl_seconds,
    };
  });
}

export function contentHash(content: string): string {
  return createHash("sha256").update(content).digest("hex");
}

/** When an item expires: its `expires_at`, or `ttl_seconds` from `now`; null when it does not. */
export function expiryOf(item: { expires_at?: string | null; ttl_seconds?: number }, now: Date): Date | null {
  if (item.ttl_seconds !== undefined) return new Date(now.getTime() + item.ttl_seconds * 1000);
  return item.expires_at ? new Date(item.expires_at) : null;
}

function rowOf(memory: PreparedMemory, namespaceId: string, now: Date, session?: { id: string; position: number }) {
  return {
    id: memory.id,
    namespaceId,
    content: memory.content,
    metadata: memory.metadata,
    scopes: memory.scopes,
    identityId: memory.identityId,
    chunkCount: memory.chunks.length,
    sessionId: session?.id ?? null,
    sessionPosition: session?.position ?? null,
    role: memory.role,
    occurredAt: memory.occurredAt,
    expiresAt: memory.expiresAt,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Stores memories: chunks them, embeds the chunks (outside any transaction; the embedder shares its time
 * fairly between organizations and keys), and writes memories, chunks, BM25 postings and term statistics a
 * group of memories at a time, each group as soon as its vectors are back. When it returns, recall finds
 * them all. All or nothing, across a crash too: a write of several groups is a write intent
 * (lib/memory/write-intents.ts) rolled back whole when it fails or its process dies (other requests may see
 * its first memories before it returns); a conversation's positions are reserved in its first group's
 * transaction and given back with a rollback. Under an Idempotency-Key the write is kept with its answer.
 */
export async function remember(
  principal: Principal,
  target: Target,
  items: RememberItem[],
  activity: ActivityNote = {},
  options: RememberOptions = {},
): Promise<{ namespace: Awaited<ReturnType<typeof resolveTarget>>; memories: MemoryRow[] }> {
  const namespace = await resolveTarget(principal, target);
  activity.namespaceId = namespace.id;
  const now = new Date();
  const candidates = items.map((item) => ({
    id: newId("mem"),
    content: item.content,
    metadata: item.metadata ?? {},
    scopes: effectiveScopes(principal.scopes, item.scopes),
    identityId: item.identity_id ?? null,
    role: item.role ?? null,
    occurredAt: item.occurred_at ? new Date(item.occurred_at) : now,
    expiresAt: expiryOf(item, now),
    contentHash: contentHash(item.content),
  }));
  // A conversation's turns are never deduplicated: the same words at another point of a conversation are
  // another turn.
  const duplicates: Duplicates =
    options.allowDuplicate || options.sessionId !== undefined
      ? { stored: new Map(), repeats: new Map() }
      : await findDuplicates(principal.orgId, namespace.id, candidates);
  const prepared: PreparedMemory[] = [];
  for (const [index, candidate] of candidates.entries()) {
    if (duplicates.stored.has(index) || duplicates.repeats.has(index)) continue;
    const chunks = chunkText(candidate.content);
    prepared.push({ ...candidate, chunks });
    // Splitting runs on the server's one thread (a 100 × 52,000-character batch: about a second of it):
    // other requests get a turn after each long memory instead of waiting for the whole batch.
    if (chunks.length > 1) await new Promise((resume) => setImmediate(resume));
  }
  // Positions are reserved in the first group's transaction: a write that never commits reserves none.
  let positions: { first: number } | undefined;
  const turnIndex = new Map(prepared.map((memory, index) => [memory, index]));
  const sessionOf = (memory: PreparedMemory) =>
    positions && options.sessionId !== undefined
      ? { id: options.sessionId, position: positions.first + turnIndex.get(memory)! }
      : undefined;
  const provider = embedder();
  const groups = transactionGroups(prepared);
  // Every group is queued for embedding now, in order; each is written while the next ones are embedded.
  const requester = requesterOf(principal);
  const embeddings = groups.map((group) =>
    provider.embed(
      group.flatMap((m) => m.chunks),
      "ingest",
      requester,
    ),
  );
  for (const pending of embeddings) pending.catch(() => undefined); // awaited in turn below, never unhandled

  const prisma = await db();
  // One group is one transaction. More than one, or a request under an Idempotency-Key (whose answer must
  // be kept with the write), is a write intent: rolled back whole if this process dies before it is done.
  const intent = new WriteIntent(principal.orgId, namespace.id, "remember");
  const tracked = groups.length > 1 || intent.bound;
  try {
    for (const [index, group] of groups.entries()) {
      const vectors = await embeddings[index];
      await prisma.$transaction(async (tx) => {
        if (index === 0 && options.sessionId !== undefined) {
          positions = await reservePositions(tx, principal, namespace.id, options.sessionId, prepared.length);
        }
        if (tracked) {
          if (index === 0) {
            const reservation = positions && { sessionId: options.sessionId!, first: positions.first };
            await intent.open(tx, reservation && { ...reservation, count: prepared.length });
          }
          await intent.record(
            tx,
            group.map((m) => m.id),
          );
        }
        await writeMemories(tx, principal, namespace.id, provider.model, now, group, vectors, sessionOf);
        if (tracked && index === groups.length - 1) await intent.complete(tx);
      });
      crashPoint(`${options.sessionId !== undefined ? "conversation" : "remember"}.group.${index + 1}`);
    }
    intent.finish();
  } catch (error) {
    await intent
      .rollBack()
      .catch((cleanup) => console.error("[memgw] rolling back a failed remember failed (swept later):", cleanup));
    throw error;
  }
  noteSearchGrowth(
    namespace.id,
    prepared.reduce((sum, m) => sum + m.chunks.length, 0),
  );
  const stored = new Map(prepared.map((m) => [m.id, rowOf(m, namespace.id, now, sessionOf(m))]));
  return {
    namespace,
    memories: candidates.map((candidate, index) => {
      const repeated = duplicates.stored.get(index) ?? stored.get(candidates[duplicates.repeats.get(index) ?? -1]?.id);
      if (repeated) return { ...repeated, deduplicated: true };
      const row = stored.get(candidate.id)!;
      // A conversation's turns are never deduplicated, so saying so would say nothing.
      return options.sessionId !== undefined ? row : { ...row, deduplicated: false };
    }),
  };
}

interface Duplicates {
  /** Candidates (by index) repeating a stored memory: that memory. */
  stored: Map<number, MemoryRow>;
  /** Candidates repeating an earlier candidate of the same request (by index): stored once, as that one. */
  repeats: Map<number, number>;
}

/**
 * Which candidates repeat a memory: same content, identity and scopes in the namespace, neither of them a
 * conversation turn nor set to expire (a memory that expires says something for a while only: the request's
 * own expiry must not be dropped in favour of another's, nor the other way round).
 */
async function findDuplicates(
  orgId: string,
  namespaceId: string,
  candidates: { contentHash: string; identityId: string | null; scopes: Scopes; expiresAt: Date | null }[],
): Promise<Duplicates> {
  const eligible = candidates.flatMap((candidate, index) => (candidate.expiresAt === null ? [index] : []));
  const duplicates: Duplicates = { stored: new Map(), repeats: new Map() };
  if (eligible.length === 0) return duplicates;
  // At most one row per candidate: the oldest memory with exactly its content, identity and scopes.
  const rows = await (
    await db()
  ).$queryRawUnsafe<(MemoryRow & { contentHash: string })[]>(
    `SELECT DISTINCT ON (m.content_hash, m.identity_id, m.scopes)
            m.id, m.namespace_id AS "namespaceId", m.content, m.metadata, m.scopes, m.identity_id AS "identityId",
            m.chunk_count AS "chunkCount", m.session_id AS "sessionId", m.session_position AS "sessionPosition",
            m.role, m.occurred_at AS "occurredAt", m.expires_at AS "expiresAt", m.version,
            m.created_at AS "createdAt", m.updated_at AS "updatedAt", m.content_hash AS "contentHash"
     FROM memories m
     JOIN unnest($3::text[], $4::text[], $5::text[]) AS c(content_hash, identity_id, scopes)
       ON m.content_hash = c.content_hash AND m.identity_id IS NOT DISTINCT FROM c.identity_id
          AND m.scopes = c.scopes::jsonb
     WHERE m.org_id = $1 AND m.namespace_id = $2 AND m.session_id IS NULL AND m.expires_at IS NULL
     ORDER BY m.content_hash, m.identity_id, m.scopes, m.created_at, m.id`,
    orgId,
    namespaceId,
    eligible.map((index) => candidates[index].contentHash),
    eligible.map((index) => candidates[index].identityId),
    eligible.map((index) => JSON.stringify(candidates[index].scopes)),
  );
  const signature = (hash: string, identityId: string | null, scopes: unknown) =>
    JSON.stringify([hash, identityId, canonicalScopes(scopes as Scopes)]);
  const known = new Map(rows.map((row) => [signature(row.contentHash, row.identityId, row.scopes), row]));
  const firstInRequest = new Map<string, number>();
  for (const index of eligible) {
    const candidate = candidates[index];
    const key = signature(candidate.contentHash, candidate.identityId, candidate.scopes);
    const stored = known.get(key);
    if (stored) duplicates.stored.set(index, stored);
    else if (firstInRequest.has(key)) duplicates.repeats.set(index, firstInRequest.get(key)!);
    else firstInRequest.set(key, index);
  }
  return duplicates;
}

function canonicalScopes(scopes: Scopes): [string, string][] {
  return Object.entries(scopes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Reserves `count` consecutive positions at the end of a conversation in one statement: concurrent appends
 * to one session get distinct ranges, each in the order of its messages.
 */
/**
 * The session's next `count` positions. A key with scopes appends only to a session whose turns it may all
 * see: numbered after turns it may not see, its first position would tell it they exist and how many there
 * are (ConflictError instead; a key without scopes sees every turn).
 */
async function reservePositions(tx: Tx, principal: Principal, namespaceId: string, sessionId: string, count: number) {
  if (Object.keys(principal.scopes).length > 0) {
    const hidden = await tx.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM memories
       WHERE org_id = $1 AND namespace_id = $2 AND session_id = $3 AND NOT (scopes @> $4::jsonb)
       LIMIT 1`,
      principal.orgId,
      namespaceId,
      sessionId,
      JSON.stringify(principal.scopes),
    );
    if (hidden.length > 0) {
      throw new ConflictError(
        `session_id "${sessionId}" holds turns outside this key's scopes: continue this conversation ` +
          "under another session_id.",
        [{ field: "body.session_id", message: "a session with turns outside the key's scopes" }],
      );
    }
  }
  const [row] = await tx.$queryRawUnsafe<{ first: number }[]>(
    `INSERT INTO conversation_sessions (namespace_id, session_id, org_id, next_position)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (namespace_id, session_id) DO UPDATE
       SET next_position = conversation_sessions.next_position + $4
     RETURNING next_position - $4 AS first`,
    namespaceId,
    sessionId,
    principal.orgId,
    count,
  );
  return { first: Number(row.first) };
}

/** What PATCH /memories/{id} may change (PatchMemoryBody); an absent field stays as it is. */
export interface MemoryChanges {
  content?: string;
  metadata?: Metadata;
  scopes?: Scopes;
  /** null clears it. */
  identity_id?: string | null;
  occurred_at?: string;
  /** null removes the expiry. */
  expires_at?: string | null;
  ttl_seconds?: number;
}

/** How often an update starts over when another one changed the memory between its read and its write. */
const UPDATE_ATTEMPTS = 3;

/** JSON of a flat object with its keys sorted: two objects with the same pairs give the same text. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(Object.entries((value ?? {}) as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * Changes a memory in place (same id) and keeps the version it replaces (lib/memory/history.ts), as
 * `principal` may: the memory must be one it can read (getMemory: granted namespace, its scopes, not
 * expired), and new scopes keep a key's own pairs (effectiveScopes: a contradiction is a 403). New content is
 * chunked and embedded before the transaction; otherwise nothing is embedded and the chunks keep their
 * vectors and postings, their copies of the memory's fields updated (a scopes change moves their term
 * statistics to the new scope signature). Values equal to the stored ones change nothing: the memory is
 * returned as it is, without a new version. An update that finds the memory changed meanwhile starts over.
 */
export async function updateMemory(
  principal: Principal,
  memoryId: string,
  changes: MemoryChanges,
  activity: ActivityNote = {},
) {
  for (let attempt = 1; ; attempt += 1) {
    const existing = await getMemory(principal, memoryId, activity);
    const now = new Date();
    const next = {
      content: changes.content ?? existing.content,
      metadata: changes.metadata ?? (existing.metadata as Metadata),
      scopes:
        changes.scopes === undefined ? (existing.scopes as Scopes) : effectiveScopes(principal.scopes, changes.scopes),
      identityId: changes.identity_id === undefined ? existing.identityId : changes.identity_id,
      occurredAt: changes.occurred_at === undefined ? existing.occurredAt : new Date(changes.occurred_at),
      expiresAt:
        changes.expires_at === undefined && changes.ttl_seconds === undefined
          ? existing.expiresAt
          : expiryOf(changes, now),
    };
    const changed = new Set<VersionedField>();
    if (next.content !== existing.content) changed.add("content");
    if (canonicalJson(next.metadata) !== canonicalJson(existing.metadata)) changed.add("metadata");
    if (canonicalJson(next.scopes) !== canonicalJson(existing.scopes)) changed.add("scopes");
    if (next.identityId !== existing.identityId) changed.add("identity_id");
    if (next.occurredAt.getTime() !== existing.occurredAt.getTime()) changed.add("occurred_at");
    if (next.expiresAt?.getTime() !== existing.expiresAt?.getTime()) changed.add("expires_at");
    if (changed.size === 0) return existing;

    const provider = embedder();
    const chunks = changed.has("content") ? chunkText(next.content) : [];
    const vectors = chunks.length > 0 ? await provider.embed(chunks, "ingest", requesterOf(principal)) : [];
    const prisma = await db();
    const updated = await prisma.$transaction(async (tx) => {
      const [locked] = await tx.$queryRawUnsafe<{ version: number; expired: boolean }[]>(
        `SELECT version, (expires_at IS NOT NULL AND expires_at <= now()) AS expired FROM memories
         WHERE id = $1 AND org_id = $2 AND namespace_id = $3 FOR UPDATE`,
        memoryId,
        principal.orgId,
        existing.namespaceId,
      );
      if (!locked || locked.expired) throw notFound(`Memory ${memoryId}`);
      // Changed since it was read (and checked against the principal's scopes): start over.
      if (locked.version !== existing.version) return null;
      await archiveCurrentVersion(tx, principal.orgId, memoryId);
      const author = await authorOf(tx, principal);
      const row = await tx.memory.update({
        where: { id: memoryId, orgId: principal.orgId },
        data: {
          content: next.content,
          contentHash: contentHash(next.content),
          metadata: next.metadata,
          scopes: next.scopes,
          identityId: next.identityId,
          occurredAt: next.occurredAt,
          expiresAt: next.expiresAt,
          chunkCount: changed.has("content") ? chunks.length : existing.chunkCount,
          version: existing.version + 1,
          updatedAt: now,
        },
      });
      await tx.$executeRawUnsafe(
        `UPDATE memories SET version_author_kind = $3, version_author_id = $4, version_author_name = $5,
                             version_changed_fields = $6::text[]
         WHERE id = $1 AND org_id = $2`,
        memoryId,
        principal.orgId,
        author.kind,
        author.id,
        author.name,
        VERSIONED_FIELDS.filter((field) => changed.has(field)),
      );
      const oldChunkIds = (
        await tx.$queryRawUnsafe<{ id: string }[]>(
          `SELECT id FROM memory_chunks WHERE org_id = $1 AND memory_id = $2`,
          principal.orgId,
          memoryId,
        )
      ).map((chunk) => chunk.id);
      if (changed.has("content")) {
        await subtractTermStatistics(tx, existing.namespaceId, oldChunkIds);
        await tx.$executeRawUnsafe(
          `DELETE FROM memory_chunks WHERE org_id = $1 AND id = ANY($2::text[])`,
          principal.orgId,
          oldChunkIds,
        );
        const rows = chunks.map((content, position) => ({
          id: newId("chk"),
          memory_id: memoryId,
          position,
          content,
          ...chunkFields(row),
          embedding: vectorLiteral(vectors[position]),
        }));
        for (let i = 0; i < rows.length; i += CHUNKS_PER_STATEMENT) {
          const statement = rows.slice(i, i + CHUNKS_PER_STATEMENT);
          await insertChunks(tx, principal.orgId, existing.namespaceId, provider.model, now, statement);
        }
      } else {
        if (changed.has("scopes")) await moveChunkScopes(tx, existing.namespaceId, oldChunkIds, next.scopes);
        await tx.$executeRawUnsafe(
          `UPDATE memory_chunks SET metadata = $4::jsonb, identity_id = $5, occurred_at = $6::timestamptz,
                                    expires_at = $7::timestamptz
           WHERE org_id = $1 AND namespace_id = $2 AND memory_id = $3`,
          principal.orgId,
          existing.namespaceId,
          memoryId,
          JSON.stringify(next.metadata),
          next.identityId,
          next.occurredAt.toISOString(),
          next.expiresAt?.toISOString() ?? null,
        );
      }
      await keepAnswerWithWrite(tx, 200, memoryJson(row));
      crashPoint("update.in-transaction");
      return row;
    });
    if (updated) {
      if (changed.has("content")) noteSearchGrowth(updated.namespaceId, chunks.length);
      return updated;
    }
    if (attempt >= UPDATE_ATTEMPTS) {
      throw new ConflictError(`Memory ${memoryId} is being changed by another request; try again.`);
    }
  }
}

/**
 * Replaces a memory's content and metadata in place (an integration's sync, when a document changed): an
 * update like any other, so the text it replaces is kept as a version. A memory that is gone (forgotten
 * meanwhile) is not found.
 */
export async function replaceMemoryContent(
  principal: Principal,
  memoryId: string,
  replacement: { content: string; metadata: Metadata },
) {
  return updateMemory(principal, memoryId, replacement);
}

/** A memory's versions, newest first, the current one included, within the principal's scopes. */
export async function memoryHistory(
  principal: Principal,
  memoryId: string,
  query: PaginationQuery,
  activity: ActivityNote = {},
) {
  const memory = await getMemory(principal, memoryId, activity);
  return historyPage(await db(), memory, principal.scopes, pageWindow(query));
}

/** Consecutive memories, as many as fit in CHUNKS_PER_TRANSACTION chunks (at least one memory each). */
function transactionGroups(memories: PreparedMemory[]): PreparedMemory[][] {
  const groups: PreparedMemory[][] = [];
  let chunks = Infinity;
  for (const memory of memories) {
    if (chunks + memory.chunks.length > CHUNKS_PER_TRANSACTION) {
      groups.push([]);
      chunks = 0;
    }
    groups[groups.length - 1].push(memory);
    chunks += memory.chunks.length;
  }
  return groups;
}

/** Writes memories and their chunks (`vectors`: one per chunk, in order), in short statements. */
async function writeMemories(
  tx: Tx,
  principal: Principal,
  namespaceId: string,
  model: string,
  now: Date,
  memories: PreparedMemory[],
  vectors: number[][],
  sessionOf: (memory: PreparedMemory) => { id: string; position: number } | undefined,
) {
  for (let i = 0; i < memories.length; i += ROWS_PER_STATEMENT) {
    await tx.memory.createMany({
      data: memories.slice(i, i + ROWS_PER_STATEMENT).map((m) => {
        const { namespaceId: _namespaceId, ...row } = rowOf(m, namespaceId, now, sessionOf(m));
        return {
          ...row,
          orgId: principal.orgId,
          namespaceId,
          apiKeyId: principal.kind === "api_key" ? principal.keyId : null,
          contentHash: m.contentHash,
        };
      }),
    });
  }
  const chunkRows = memories.flatMap((memory) => {
    const session = sessionOf(memory);
    return memory.chunks.map((content, position) => ({
      id: newId("chk"),
      memory_id: memory.id,
      position,
      content,
      ...chunkFields({ ...memory, sessionId: session?.id ?? null, sessionPosition: session?.position ?? null }),
    }));
  });
  const rows = chunkRows.map((row, i) => ({ ...row, embedding: vectorLiteral(vectors[i]) }));
  for (let i = 0; i < rows.length; i += CHUNKS_PER_STATEMENT) {
    await insertChunks(tx, principal.orgId, namespaceId, model, now, rows.slice(i, i + CHUNKS_PER_STATEMENT));
  }
}

/** The fields of a memory that its chunks carry a copy of (search filters on them), as insertChunks reads them. */
export function chunkFields(memory: {
  metadata: unknown;
  scopes: unknown;
  identityId: string | null;
  sessionId: string | null;
  sessionPosition: number | null;
  role: string | null;
  occurredAt: Date;
  expiresAt: Date | null;
}) {
  return {
    metadata: memory.metadata,
    scopes: memory.scopes,
    identity_id: memory.identityId,
    session_id: memory.sessionId,
    session_position: memory.sessionPosition,
    role: memory.role,
    occurred_at: memory.occurredAt.toISOString(),
    expires_at: memory.expiresAt?.toISOString() ?? null,
  };
}

/**
 * Writes chunks with their BM25 postings and the namespace's term statistics in one statement, each
 * chunk's text tokenized once; chunks with scopes also count toward their scope signature's statistics
 * (what a key with scopes is scored over, lib/memory/search.ts). A conversation turn is indexed with who
 * said it: questions name people ("What did Caroline research?") while turns rarely name their speaker.
 */
export async function insertChunks(
  tx: Tx,
  orgId: string,
  namespaceId: string,
  model: string,
  now: Date,
  rows: object[],
) {
  await tx.$executeRawUnsafe(
    `WITH input AS (
       SELECT u.*, to_tsvector('${TEXT_SEARCH_CONFIG}', concat_ws(': ', u.role, u.content)) AS tsv,
              CASE WHEN u.scopes <> '{}'::jsonb THEN md5(u.scopes::text) END AS scope_key
       FROM jsonb_to_recordset($5::jsonb) AS u(id text, memory_id text, position int, content text, embedding text,
                                              metadata jsonb, scopes jsonb, identity_id text, session_id text,
                                              session_position int, role text, occurred_at timestamptz,
                                              expires_at timestamptz)
     ),
     terms AS (
       SELECT i.id, t.lexeme, array_length(t.positions, 1) AS tf FROM input i, unnest(i.tsv) t
     ),
     lengths AS (
       SELECT i.id, COALESCE(sum(t.tf), 0)::int AS term_count
       FROM input i LEFT JOIN terms t ON t.id = i.id GROUP BY i.id
     ),
     chunks AS (
       INSERT INTO memory_chunks (id, org_id, namespace_id, memory_id, position, content, embedding, embedding_model,
                                  term_count, metadata, scopes, scope_key, identity_id, created_at, session_id,
                                  session_position, role, occurred_at, expires_at)
       SELECT i.id, $1, $2, i.memory_id, i.position, i.content, i.embedding::vector, $3, l.term_count,
              i.metadata, i.scopes, i.scope_key, i.identity_id, $4::timestamptz, i.session_id,
              i.session_position, i.role, i.occurred_at, i.expires_at
       FROM input i JOIN lengths l ON l.id = i.id
     ),
     postings AS (
       INSERT INTO chunk_terms (namespace_id, term, chunk_id, tf, term_count, scope_key)
       SELECT $2, t.lexeme, t.id, t.tf, l.term_count, i.scope_key
       FROM terms t JOIN lengths l ON l.id = t.id JOIN input i ON i.id = t.id
     ),
     statistics AS (
       INSERT INTO namespace_search_stats (namespace_id, chunk_count, total_terms)
       SELECT $2, count(*), COALESCE(sum(term_count), 0) FROM lengths
       ON CONFLICT (namespace_id) DO UPDATE SET chunk_count = namespace_search_stats.chunk_count + EXCLUDED.chunk_count,
                                                total_terms = namespace_search_stats.total_terms + EXCLUDED.total_terms
     ),
     scope_statistics AS (
       INSERT INTO scope_search_stats (namespace_id, scope_key, scopes, chunk_count, total_terms)
       SELECT $2, i.scope_key, i.scopes, count(*), COALESCE(sum(l.term_count), 0)
       FROM input i JOIN lengths l ON l.id = i.id WHERE i.scope_key IS NOT NULL GROUP BY i.scope_key, i.scopes
       ON CONFLICT (namespace_id, scope_key) DO UPDATE
         SET chunk_count = scope_search_stats.chunk_count + EXCLUDED.chunk_count,
             total_terms = scope_search_stats.total_terms + EXCLUDED.total_terms
     ),
     scope_term_counts AS (
       INSERT INTO scope_terms (namespace_id, scope_key, term, df)
       SELECT $2, i.scope_key, t.lexeme, count(*)
       FROM terms t JOIN input i ON i.id = t.id WHERE i.scope_key IS NOT NULL GROUP BY i.scope_key, t.lexeme
       ON CONFLICT (namespace_id, scope_key, term) DO UPDATE SET df = scope_terms.df + EXCLUDED.df
     )
     INSERT INTO namespace_terms (namespace_id, term, df)
     SELECT $2, lexeme, count(*) FROM terms GROUP BY lexeme
     ON CONFLICT (namespace_id, term) DO UPDATE SET df = namespace_terms.df + EXCLUDED.df`,
    orgId,
    namespaceId,
    model,
    now.toISOString(),
    JSON.stringify(rows),
  );
}

/**
 * Moves chunks to another scope signature without touching their text (a memory's scopes changed): their
 * postings and their share of the old signature's statistics go to the new one; the namespace's own
 * statistics stay as they are.
 */
async function moveChunkScopes(tx: Tx, namespaceId: string, chunkIds: string[], scopes: Scopes) {
  if (chunkIds.length === 0) return;
  await subtractScopeStatistics(tx, namespaceId, chunkIds);
  // The signature as insertChunks computes it: md5 of the canonical jsonb text.
  await tx.$executeRawUnsafe(
    `UPDATE memory_chunks SET scopes = $2::jsonb,
                              scope_key = CASE WHEN $2::jsonb <> '{}'::jsonb THEN md5($2::jsonb::text) END
     WHERE namespace_id = $3 AND id = ANY($1::text[])`,
    chunkIds,
    JSON.stringify(scopes),
    namespaceId,
  );
  await tx.$executeRawUnsafe(
    `UPDATE chunk_terms t SET scope_key = c.scope_key FROM memory_chunks c
     WHERE t.namespace_id = $2 AND t.chunk_id = c.id AND c.id = ANY($1::text[])`,
    chunkIds,
    namespaceId,
  );
  if (Object.keys(scopes).length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO scope_search_stats (namespace_id, scope_key, scopes, chunk_count, total_terms)
     SELECT $1, c.scope_key, c.scopes, count(*), COALESCE(sum(c.term_count), 0) FROM memory_chunks c
     WHERE c.namespace_id = $1 AND c.id = ANY($2::text[]) GROUP BY c.scope_key, c.scopes
     ON CONFLICT (namespace_id, scope_key) DO UPDATE
       SET chunk_count = scope_search_stats.chunk_count + EXCLUDED.chunk_count,
           total_terms = scope_search_stats.total_terms + EXCLUDED.total_terms`,
    namespaceId,
    chunkIds,
  );
  await tx.$executeRawUnsafe(
    `INSERT INTO scope_terms (namespace_id, scope_key, term, df)
     SELECT $1, t.scope_key, t.term, count(*) FROM chunk_terms t
     WHERE t.namespace_id = $1 AND t.chunk_id = ANY($2::text[]) GROUP BY t.scope_key, t.term
     ON CONFLICT (namespace_id, scope_key, term) DO UPDATE SET df = scope_terms.df + EXCLUDED.df`,
    namespaceId,
    chunkIds,
  );
}

/** One memory, if it is in a namespace granted to the principal and carries all of the principal's scopes. */
export async function getMemory(principal: Principal, id: string, activity: ActivityNote = {}) {
  const prisma = await db();
  const memory = await prisma.memory.findFirst({
    where: {
      id,
      orgId: principal.orgId,
      namespace: namespaceAccess(principal),
      AND: Object.entries(principal.scopes).map(([name, value]) => ({ scopes: { path: [name], equals: value } })),
      OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }],
    },
  });
  if (!memory) throw notFound(`Memory ${id}`);
  activity.namespaceId = memory.namespaceId;
  activity.identityId = memory.identityId;
  return memory;
}

/** What a forget deleted in its namespace, as its `inTransaction` step sees it. */
export interface ForgottenInNamespace {
  namespaceId: string;
  namespace: { id: string; name: string };
  memoryIds: string[];
  chunksDeleted: number;
}

/**
 * Deletes the memories matching every selector given (within the key's scopes), with their chunks and vectors.
 * `inTransaction` runs in the deletion's transaction (the erasure receipt and audit entry; throwing undoes it).
 */
export async function forget(
  principal: Principal,
  body: ForgetBody,
  activity: ActivityNote = {},
  inTransaction?: (tx: Tx, forgotten: ForgottenInNamespace) => Promise<void>,
) {
  const namespace = await resolveTarget(principal, body);
  activity.namespaceId = namespace.id;
  const scopes = effectiveScopes(principal.scopes, body.scopes);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const memoryIds = await memoriesSelectedForDeletion(tx, {
      orgId: principal.orgId,
      namespaceId: namespace.id,
      scopes,
      identityId: body.identity_id,
      metadata: body.metadata,
      memoryIds: body.memory_ids,
    });
    const chunksDeleted = await deleteMemories(tx, principal.orgId, namespace.id, memoryIds);
    await inTransaction?.(tx, { namespaceId: namespace.id, namespace, memoryIds, chunksDeleted });
    crashPoint("forget.in-transaction");
    return { namespace, deleted: memoryIds.length, memoryIds, chunksDeleted };
  });
}

/**
 * The ids of the memories a deletion request selects, oldest first: expired ones too (not yet swept), so
 * that a deletion request leaves nothing behind.
 */
export async function memoriesSelectedForDeletion(tx: Tx, filter: ChunkFilter): Promise<string[]> {
  const params: unknown[] = [];
  const where = memoryFilterSql({ ...filter, includeExpired: true }, params, "m");
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT m.id FROM memories m WHERE ${where} ORDER BY m.created_at, m.id`,
    ...params,
  );
  return rows.map((row) => row.id);
}
