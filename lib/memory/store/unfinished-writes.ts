// A memory written by a write still under way — a batch between its groups, or a write under an
// Idempotency-Key before its answer is kept: its write intent is open (write-intents.ts) — may yet be rolled
// back. Deduplication answers with such a twin only once its write has finished, so an answer never names a
// memory that then disappears; a twin rolled back leaves its place free, and the waiting write stores its own.
import { db, type Tx } from "@/lib/db";
import { BusyError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { WRITE_INTENT_LEASE_MS, WRITE_INTENT_SWEEP_MS } from "./write-intents";

/**
 * How soon a write waiting for another's looks again: at once-ish for a batch's next group (a few ms away), then
 * less often, so that many waiters for a long write (an import, or a dead process's until its sweep) do not keep
 * a stream of queries on the database (on the embedded one, its only session).
 */
const FIRST_POLL_MS = 20;
const POLL_GROWTH = 1.5;
const LONGEST_POLL_MS = 250;
/** Longer than a dead process's write waits to be rolled back (its lease, then a sweep). */
const MAX_WAIT_MS = WRITE_INTENT_LEASE_MS + WRITE_INTENT_SWEEP_MS + 2_000;

/**
 * Thrown inside a write's transaction when a twin it would answer with belongs to an unfinished write: the
 * transaction rolls back, and the write waits for `memoryIds`' writes (awaitFinishedWrites) and runs it again.
 */
export class UnfinishedTwinError extends Error {
  constructor(readonly memoryIds: string[]) {
    super("a twin of this write belongs to a write still under way");
    this.name = "UnfinishedTwinError";
  }
}

/** Of `memoryIds` (of the organization), those recorded by a write intent still open. Read through `client`. */
export async function unfinishedMemories(orgId: string, memoryIds: string[], client?: Tx): Promise<string[]> {
  if (memoryIds.length === 0) return [];
  const rows = await (client ?? (await db())).$queryRaw<{ memory_id: string }[]>(
    Prisma.sql`SELECT DISTINCT m.memory_id FROM write_intent_memories m
               JOIN write_intents i ON i.id = m.intent_id
               WHERE i.org_id = ${orgId} AND m.memory_id = ANY(${memoryIds}::text[])`,
  );
  return rows.map((row) => row.memory_id);
}

/**
 * Waits, outside any transaction, until none of `memoryIds` belongs to an open write intent (its write
 * finished or was rolled back). BusyError (503, Retry-After) after MAX_WAIT_MS: two batches each waiting
 * for the other's twin give up rather than wait for good.
 */
export async function awaitFinishedWrites(orgId: string, memoryIds: string[]): Promise<void> {
  const deadline = Date.now() + MAX_WAIT_MS;
  let pollMs = FIRST_POLL_MS;
  while ((await unfinishedMemories(orgId, memoryIds)).length > 0) {
    if (Date.now() > deadline) throw twinUnfinished();
    await new Promise((resume) => setTimeout(resume, pollMs));
    pollMs = Math.min(LONGEST_POLL_MS, pollMs * POLL_GROWTH);
  }
}

/** 503 with Retry-After: a twin's write is still under way (the client's retry finds it finished or gone). */
export function twinUnfinished(): BusyError {
  return new BusyError("An identical memory is being written by another request; try again shortly.", 2);
}
