import type { ActivityNote } from "@/lib/activity/activity";
import { requesterOf, type Principal } from "@/lib/auth/principal";
import type { Scopes } from "@/lib/auth/scopes";
import { db, type Tx } from "@/lib/db";
import { BusyError } from "@/lib/errors";
import { recordEvents, recordMemoryEvents } from "@/lib/event-recording/record-events";
import { newId } from "@/lib/ids";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { chunkText } from "../store/chunking";
import { reservePositions } from "./conversation-positions";
import { embedder } from "../embeddings";
import { findDuplicates, findFinishedDuplicates, type Duplicates } from "./remember-duplicates";
import type { MemoryRow, Metadata } from "../common/schemas";
import { candidateOf, type RememberItem } from "./memory-items";
import type { Target } from "@/lib/validation/target";
import { linkEntities } from "../entities/link-entities";
import { chunkFields, CHUNKS_PER_STATEMENT, insertChunks } from "../store/search-index";
import { noteSearchGrowth } from "../search/search-maintenance";
import { canonicalJson } from "@/lib/http/canonical-json";
import {
  awaitFinishedWrites,
  twinUnfinished,
  UnfinishedTwinError,
  unfinishedMemories,
} from "../store/unfinished-writes";
import { crashPoint, WriteIntent } from "../store/write-intents";
import { assertReadable, copyValidityToChunks, settleValidity, withSettled, type Settled } from "../validity/settle";
import type { RememberOptions } from "./remember-options";

export type { RememberOptions, WrittenMemory } from "./remember-options";

// Short statements: PGlite has one session, so a write never holds every other request for long.
const ROWS_PER_STATEMENT = 100;
/**
 * A batch is written a few memories at a time, each group in a transaction of its own: PGlite has one
 * connection, and one transaction for a whole batch of 100 × 52,000 characters (3,000 chunks) held every
 * other write of every organization for over a minute. One embedding call's worth of chunks per group
 * (an organization's remember waits for at most one such group of another's: well under a second).
 */
const CHUNKS_PER_TRANSACTION = 32;

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
  validAt: Date;
  factKey: string | null;
  supersedes: string[];
  /** A fact a chat model extracted from these memories (kind `fact`): forgotten with them. */
  derivedFrom: string[] | null;
  /** Stored under deduplication: it holds its content's place (memories_unique_content_key). */
  uniqueContent: boolean;
  chunks: string[];
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
    validAt: memory.validAt,
    invalidAt: null,
    supersededBy: null,
    supersession: null,
    factKey: memory.factKey,
    kind: memory.derivedFrom ? "fact" : "memory",
    derivedFrom: memory.derivedFrom ?? [],
    inference: null,
  };
}

/**
 * Stores memories: chunks them, embeds the chunks (outside any transaction; the embedder shares its time
 * fairly between organizations and keys), and writes memories, chunks, BM25 postings and term statistics a
 * group of memories at a time, each group as soon as its vectors are back. When it returns, recall finds
 * them all. All or nothing, across a crash too: a write of several groups is a write intent
 * (lib/memory/store/write-intents.ts) rolled back whole when it fails or its process dies (other requests may see
 * its first memories before it returns); a conversation's positions are reserved in its first group's
 * transaction and given back with a rollback. Under an Idempotency-Key the write is kept with its answer.
 * Deduplication (lib/memory/write/remember-duplicates.ts) is decided by the database: identical remembers at once
 * store one memory, and the others answer it with `deduplicated: true`, as if they had come after it; a twin
 * stored by a write still under way is answered only once that write has finished (unfinished-writes.ts), and
 * one rolled back leaves its place to this write. BusyError when such a write does not finish in time.
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
  // A conversation's turns are never deduplicated: the same words at another point of a conversation are
  // another turn.
  const deduplicate = !options.allowDuplicate && options.sessionId === undefined;
  const candidates = items.map((item) => candidateOf(principal.scopes, item, now));
  await assertReadable(principal, namespace.id, [...new Set(candidates.flatMap((c) => c.supersedes))]);
  // What is already stored is answered without embedding anything; a twin stored meanwhile by a request
  // running at the same time is found when this one's insert meets it (writeMemories).
  const duplicates: Duplicates = deduplicate
    ? await findFinishedDuplicates(principal.orgId, namespace.id, candidates)
    : { stored: new Map(), repeats: new Map() };
  const prepared: PreparedMemory[] = [];
  for (const [index, candidate] of candidates.entries()) {
    if (duplicates.stored.has(index) || duplicates.repeats.has(index)) continue;
    const chunks = chunkText(candidate.content);
    prepared.push({ ...candidate, uniqueContent: deduplicate && candidate.expiresAt === null, chunks });
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
  // Memories another request stored first, while this one embedded its twins: by the id this one would have had.
  const storedMeanwhile = new Map<string, MemoryRow>();
  const written = new Set<PreparedMemory>();
  const settled = new Map<string, Settled>();
  try {
    for (const [index, group] of groups.entries()) {
      const vectors = await embeddings[index];
      // A group after the first holds its own write intent open: waiting would hold the twins of its earlier
      // groups unfinished for whoever waits for them (another batch waiting for this one's: both would wait).
      const outcome = await meetingFinishedTwins(principal.orgId, tracked && index > 0, () =>
        prisma.$transaction(async (tx) => {
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
          const outcome = await writeMemories(
            tx,
            principal,
            namespace.id,
            provider.model,
            now,
            group,
            vectors,
            sessionOf,
            options,
          );
          await options.inEachGroup?.(tx, outcome.written);
          if (index === groups.length - 1) await options.inLastGroup?.(tx);
          if (tracked && index === groups.length - 1) await intent.complete(tx);
          return outcome;
        }),
      );
      for (const memory of outcome.written) written.add(memory);
      for (const [id, outcomeOf] of outcome.settled) settled.set(id, outcomeOf);
      for (const [id, row] of outcome.storedMeanwhile) storedMeanwhile.set(id, row);
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
    [...written].reduce((sum, m) => sum + m.chunks.length, 0),
  );
  const stored = new Map(
    [...written].map((m) => [m.id, withSettled(rowOf(m, namespace.id, now, sessionOf(m)), settled)]),
  );
  // What this request stores, or the memory that stood in for it (stored before, or meanwhile by another).
  const answerFor = (id: string) => {
    const row = stored.get(id);
    return row ? { row, deduplicated: false } : { row: storedMeanwhile.get(id)!, deduplicated: true };
  };
  return {
    namespace,
    memories: candidates.map((candidate, index) => {
      const before = duplicates.stored.get(index);
      if (before) return { ...before, deduplicated: true };
      const repeatOf = duplicates.repeats.get(index);
      const { row, deduplicated } = answerFor(candidates[repeatOf ?? index].id);
      // A conversation's turns are never deduplicated, so saying so would say nothing.
      if (options.sessionId !== undefined) return row;
      return { ...row, deduplicated: deduplicated || repeatOf !== undefined };
    }),
  };
}

/**
 * Runs a group's transaction; when it met a twin of a write still under way (UnfinishedTwinError, rolled back),
 * waits outside it for that write to finish and runs it again: the twin is then whole (answered with) or gone
 * (its place is free). BusyError when that keeps happening, or at once when `holdingOwnIntent`: this request's
 * earlier groups are unfinished twins for others meanwhile, so it gives them up (rolled back) rather than wait.
 */
async function meetingFinishedTwins<T>(
  orgId: string,
  holdingOwnIntent: boolean,
  transaction: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await transaction();
    } catch (error) {
      if (!(error instanceof UnfinishedTwinError)) throw error;
      if (holdingOwnIntent) throw twinUnfinished();
      if (attempt >= 3) {
        throw new BusyError("Identical memories are being written by other requests; try again shortly.", 2);
      }
      await awaitFinishedWrites(orgId, error.memoryIds);
    }
  }
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

/**
 * Writes memories and their chunks (`vectors`: one per chunk, in order), in short statements. A memory under
 * deduplication whose twin another request committed meanwhile (memories_unique_content_key refuses it) is
 * not written: `storedMeanwhile` gives that twin by the refused memory's id, and `written` what was stored.
 */
async function writeMemories(
  tx: Tx,
  principal: Principal,
  namespaceId: string,
  model: string,
  now: Date,
  group: PreparedMemory[],
  groupVectors: number[][],
  sessionOf: (memory: PreparedMemory) => { id: string; position: number } | undefined,
  options: RememberOptions,
): Promise<{ written: PreparedMemory[]; storedMeanwhile: Map<string, MemoryRow>; settled: Map<string, Settled> }> {
  const { documentId } = options;
  const vectorsOf = new Map<PreparedMemory, number[][]>();
  let offset = 0;
  for (const memory of group) {
    vectorsOf.set(memory, groupVectors.slice(offset, offset + memory.chunks.length));
    offset += memory.chunks.length;
  }
  const { written: memories, storedMeanwhile } = await insertMemories(
    tx,
    principal,
    namespaceId,
    now,
    group,
    sessionOf,
    documentId,
  );
  const settled = await settleValidity(
    tx,
    principal.orgId,
    namespaceId,
    memories.map((memory) => ({
      ...memory,
      turnOrPassage: sessionOf(memory) !== undefined || documentId !== undefined,
      vectors: vectorsOf.get(memory)!,
    })),
    options.namedBy,
  );
  const vectors = memories.flatMap((memory) => vectorsOf.get(memory)!);
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
  const rows = chunkRows.map((row, i) => ({ ...row, embedding: vectors[i] }));
  for (let i = 0; i < rows.length; i += CHUNKS_PER_STATEMENT) {
    await insertChunks(tx, principal.orgId, namespaceId, model, now, rows.slice(i, i + CHUNKS_PER_STATEMENT));
  }
  const closed = [...settled].filter(([, outcome]) => outcome.closing).map(([id]) => id);
  if (closed.length > 0) await copyValidityToChunks(tx, principal.orgId, closed);
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
  return { written: memories, storedMeanwhile, settled };
}

/**
 * Inserts the memories' rows. Those under deduplication go in with ON CONFLICT DO NOTHING on
 * memories_unique_content_key: on PostgreSQL an insert meeting a twin that another transaction has written
 * waits for that transaction, so the twin is committed (or gone) when this one goes on, and this one's
 * next statement (read committed) sees it; the embedded database runs whole transactions one at a time.
 * A twin deleted before it could be read leaves the place free: the memory is inserted again.
 */
async function insertMemories(
  tx: Tx,
  principal: Principal,
  namespaceId: string,
  now: Date,
  memories: PreparedMemory[],
  sessionOf: (memory: PreparedMemory) => { id: string; position: number } | undefined,
  documentId: string | undefined,
): Promise<{ written: PreparedMemory[]; storedMeanwhile: Map<string, MemoryRow> }> {
  const rowsOf = (batch: PreparedMemory[]) =>
    batch.map((m) => {
      // A new memory holds (its validity is settled once inserted): supersession stays NULL, as does inference
      // until an extraction job is queued for it (inEachGroup).
      const {
        namespaceId: _namespaceId,
        supersession: _supersession,
        inference: _inference,
        ...row
      } = rowOf(m, namespaceId, now, sessionOf(m));
      return {
        ...row,
        orgId: principal.orgId,
        namespaceId,
        apiKeyId: principal.kind === "api_key" ? principal.keyId : null,
        contentHash: m.contentHash,
        uniqueContent: m.uniqueContent,
        documentId: documentId ?? null,
      };
    });
  const inserted = new Set<string>();
  const storedMeanwhile = new Map<string, MemoryRow>();
  // Two requests inserting the same twins take their places in one order, so neither waits on the other's.
  let pending = [...memories].sort((a, b) => placeOf(a).localeCompare(placeOf(b)));
  for (let attempt = 1; pending.length > 0; attempt += 1) {
    if (attempt > 3)
      throw new BusyError("Identical memories are being written and deleted by other requests; try again shortly.", 2);
    const claimed = new Set<string>();
    for (let i = 0; i < pending.length; i += ROWS_PER_STATEMENT) {
      const rows = await tx.memory.createManyAndReturn({
        data: rowsOf(pending.slice(i, i + ROWS_PER_STATEMENT)),
        skipDuplicates: true,
        select: { id: true },
      });
      for (const row of rows) claimed.add(row.id);
    }
    for (const id of claimed) inserted.add(id);
    const refused = pending.filter((memory) => !claimed.has(memory.id));
    if (refused.length === 0) break;
    const twins = await findDuplicates(principal.orgId, namespaceId, refused, tx);
    // A twin whose write is still under way may yet be rolled back: this transaction is run again once it is
    // finished (meetingFinishedTwins), rather than answer with a memory that may disappear.
    const unfinished = await unfinishedMemories(
      principal.orgId,
      [...twins.stored.values()].map((twin) => twin.id),
      tx,
    );
    if (unfinished.length > 0) throw new UnfinishedTwinError(unfinished);
    for (const [index, twin] of twins.stored) storedMeanwhile.set(refused[index].id, twin);
    pending = refused.filter((memory) => !storedMeanwhile.has(memory.id));
  }
  return { written: memories.filter((memory) => inserted.has(memory.id)), storedMeanwhile };
}

/** A memory's place under deduplication: the same for twins, and one order of places for every request. */
function placeOf(memory: PreparedMemory): string {
  return `${memory.contentHash}\u0000${canonicalJson(memory.scopes)}\u0000${memory.identityId ?? ""}`;
}
