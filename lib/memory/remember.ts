import type { ActivityNote } from "@/lib/activity/activity";
import { requesterOf, type Principal } from "@/lib/auth/principal";
import type { Scopes } from "@/lib/auth/scopes";
import { db, type Tx } from "@/lib/db";
import { recordEvents, recordMemoryEvents } from "@/lib/events/recording/record-events";
import { newId } from "@/lib/ids";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { chunkText } from "./chunking";
import { reservePositions } from "./conversation-positions";
import { embedder } from "./embeddings";
import { contentHash, expiryOf } from "./memory-fields";
import { findDuplicates, type Duplicates } from "./remember-duplicates";
import type { MemoryItem, MemoryRow, Metadata, RememberBody, Target } from "./schemas";
import { effectiveScopes } from "./scopes";
import { linkEntities } from "./entities/link-entities";
import { chunkFields, CHUNKS_PER_STATEMENT, insertChunks } from "./search-index";
import { noteSearchGrowth } from "./search-maintenance";
import { vectorLiteral } from "./sql";
import { crashPoint, WriteIntent } from "./write-intents";

// Short statements: PGlite has one session, so a write never holds every other request for long.
const ROWS_PER_STATEMENT = 100;
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
  /** The items are passages of this document (lib/documents): deleted with it. */
  documentId?: string;
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
        await writeMemories(
          tx,
          principal,
          namespace.id,
          provider.model,
          now,
          group,
          vectors,
          sessionOf,
          options.documentId,
        );
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
  documentId: string | undefined,
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
          documentId: documentId ?? null,
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
  await linkEntities(tx, principal.orgId, namespaceId, memories);
  await recordMemoryEvents(
    tx,
    principal.orgId,
    "memory.created",
    memories.map((memory) => memory.id),
  );
  const turns = memories.filter((memory) => sessionOf(memory));
  if (turns.length > 0) {
    const positions = turns.map((memory) => sessionOf(memory)!.position);
    await recordEvents(tx, principal.orgId, [
      {
        type: "conversation.appended",
        namespaceId,
        identityId: turns[0].identityId,
        scopes: turns[0].scopes,
        data: {
          session_id: sessionOf(turns[0])!.id,
          memory_ids: turns.map((memory) => memory.id),
          count: turns.length,
          first_position: Math.min(...positions),
          last_position: Math.max(...positions),
        },
      },
    ]);
  }
}
