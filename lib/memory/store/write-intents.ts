// Writes spanning several transactions, all or nothing across a crash. A batch or a conversation's turns
// are written a group at a time (PGlite has one connection: one transaction for a whole batch held every
// other request), and an import thousands of memories at a time. Such a write first records an intent
// (`write_intents`) in the transaction of its first group, adds each group's memories to it in that group's
// transaction, and deletes it with its last group. An intent still there was left by a write that did not
// finish: it is rolled back — its memories deleted through deleteMemories (chunks, postings, statistics),
// the conversation positions it reserved given back while still the session's last — at start-up, by a
// sweep every few seconds once its lease ends (another instance's, on PostgreSQL) or its own process lost
// track of it, and by the retry that takes its Idempotency-Key over, before that retry runs.
//
// Under an Idempotency-Key (lib/http/idempotency.ts) every remember records an intent, and it is kept past
// the write's last group until the request's answer is kept, in the same transaction: a process killed
// between the write and its kept answer leaves an intent, and the retry rolls it back and does the work
// once. Each group's transaction renews the lease and fails if the intent is gone (rolled back by another
// instance): a write whose lease ran out cannot add to what was rolled back.
import { db, getDatabase, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { currentIdempotencyScope, processId, type KeptWrite } from "@/lib/http/request-writes";
import { newId } from "@/lib/ids";
import { deleteMemories } from "./deletion";

export { crashPoint } from "@/lib/http/request-writes";

/** How long an intent outlives its process's last renewal before another instance may roll it back. */
export const WRITE_INTENT_LEASE_MS = 15_000;
const RENEWAL_MS = 5_000;
/** How often each instance looks for abandoned intents. */
export const WRITE_INTENT_SWEEP_MS = 5_000;
/** Memories deleted per transaction of a rollback: a large import's rollback does not hold PGlite for long. */
const MEMORIES_PER_ROLLBACK = 500;

// On globalThis: Next bundles each route module with its own copy of this module; one process, one set.
const state = globalThis as typeof globalThis & { __memgwLiveIntents?: Set<string> };
/** Intents this process is writing (or keeping for an answer): never rolled back by its own sweep. */
const live = (state.__memgwLiveIntents ??= new Set<string>());

/** A write's transaction found its intent gone: rolled back by recovery after its lease ended. */
export class WriteRolledBackError extends Error {
  constructor() {
    super("This write was rolled back by recovery (its lease ended); nothing of it is kept.");
    this.name = "WriteRolledBackError";
  }
}

interface Reservation {
  sessionId: string;
  first: number;
  count: number;
}

/** One write in groups: open it in the first group's transaction, record every group, complete with the last. */
export class WriteIntent {
  readonly id = newId("wri");
  private readonly scope = currentIdempotencyScope();
  private renewal: NodeJS.Timeout | undefined;
  private opened = false;

  constructor(
    readonly orgId: string,
    readonly namespaceId: string,
    readonly kind: "remember" | "import",
  ) {}

  /** Whether the request holds an Idempotency-Key: the write is then kept by its answer. */
  get bound(): boolean {
    return this.scope !== undefined;
  }

  get isOpen(): boolean {
    return this.opened;
  }

  /** In the transaction of the first group; `reservation`: the conversation positions reserved in it. */
  async open(tx: Tx, reservation?: Reservation): Promise<void> {
    await tx.$executeRaw(
      Prisma.sql`INSERT INTO write_intents (id, org_id, namespace_id, kind, idempotency_key, session_id, first_position,
                                  position_count, process_id, locked_until)
       VALUES (${this.id}, ${this.orgId}, ${this.namespaceId}, ${this.kind}, ${this.scope?.key ?? null},
               ${reservation?.sessionId ?? null}, ${reservation?.first ?? null}, ${reservation?.count ?? null},
               ${processId}, now() + ${WRITE_INTENT_LEASE_MS} * interval '1 millisecond')`,
    );
    // Counted live from here: if the transaction fails, the row never existed. A first group run again (it
    // met a twin of an unfinished write, remember.ts) inserts the row again, and is counted once.
    if (this.opened) return;
    this.opened = true;
    live.add(this.id);
    this.scope?.writes.push(this.keptWrite());
    this.renewal = setInterval(() => {
      this.renew().catch((error) => console.error(`[memgw] renewing write ${this.id}'s lease failed:`, error));
    }, RENEWAL_MS);
    this.renewal.unref();
  }

  /** In each group's transaction (the first's too, after open): the memories it stores. Fenced. */
  async record(tx: Tx, memoryIds: string[]): Promise<void> {
    const renewed = await tx.$queryRaw<{ id: string }[]>(
      Prisma.sql`UPDATE write_intents SET locked_until = now() + ${WRITE_INTENT_LEASE_MS} * interval '1 millisecond'
                 WHERE id = ${this.id} RETURNING id`,
    );
    if (renewed.length === 0) throw new WriteRolledBackError();
    if (memoryIds.length === 0) return;
    await tx.$executeRaw(
      Prisma.sql`INSERT INTO write_intent_memories (intent_id, memory_id)
                 SELECT ${this.id}, unnest(${memoryIds}::text[])`,
    );
  }

  /**
   * In the last group's transaction, after record: the write is whole. Without an Idempotency-Key the intent
   * goes now; with one it stays until the answer is kept (lib/http/request-writes.ts).
   */
  async complete(tx: Tx): Promise<void> {
    if (this.bound) return;
    await tx.$executeRaw(Prisma.sql`DELETE FROM write_intents WHERE id = ${this.id}`);
  }

  /**
   * After the last group committed: an intent without an Idempotency-Key is done with; one with a key is
   * renewed until the answer is kept.
   */
  finish(): void {
    if (!this.bound) this.stop();
  }

  stop(): void {
    clearInterval(this.renewal);
    this.renewal = undefined;
    live.delete(this.id);
  }

  /** The write failed: deletes what it stored and its intent (what cannot be deleted now, the sweep will). */
  async rollBack(): Promise<void> {
    clearInterval(this.renewal);
    this.renewal = undefined;
    if (!this.opened) return;
    try {
      await rollBackIntent(this.id, { wait: true });
    } finally {
      live.delete(this.id);
    }
  }

  /** How the request's answer keeps or drops this write (lib/http/idempotency.ts). */
  private keptWrite(): KeptWrite {
    return {
      keep: async (tx) => {
        const deleted = await tx.$queryRaw<{ id: string }[]>(
          Prisma.sql`DELETE FROM write_intents WHERE id = ${this.id} RETURNING id`,
        );
        if (deleted.length === 0) throw new WriteRolledBackError();
      },
      rollBack: () => this.rollBack(),
      settle: () => this.stop(),
    };
  }

  private async renew() {
    const prisma = await db();
    await prisma.$executeRaw(
      Prisma.sql`UPDATE write_intents SET locked_until = now() + ${WRITE_INTENT_LEASE_MS} * interval '1 millisecond'
                 WHERE id = ${this.id}`,
    );
  }
}

/**
 * The retry that took an Idempotency-Key over: rolls back whatever the earlier claim's writes left, waiting
 * for a transaction still writing one, before the retry runs.
 */
export async function rollBackWritesOfKey(key: string): Promise<number> {
  const prisma = await db();
  const rows = await prisma.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT id FROM write_intents WHERE idempotency_key = ${key}`,
  );
  for (const row of rows) await rollBackIntent(row.id, { wait: true });
  return rows.length;
}

/**
 * Rolls back the intents no live write owns: on the embedded database every other process's (only this one
 * can hold the data directory), on PostgreSQL those whose lease ended; and this process's own that it no
 * longer tracks (a rollback that failed). At start-up and every WRITE_INTENT_SWEEP_MS. Returns how many.
 */
export async function rollBackAbandonedWrites(): Promise<number> {
  const database = await getDatabase();
  const rows = await database.prisma.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT id FROM write_intents
     WHERE CASE WHEN process_id = ${processId} THEN NOT (id = ANY(${[...live]}::text[]))
                ELSE (${database.kind === "pglite"}::boolean OR locked_until < now()) END
     ORDER BY created_at`,
  );
  let rolledBack = 0;
  for (const row of rows) {
    if (live.has(row.id)) continue;
    if (await rollBackIntent(row.id, { wait: false })) rolledBack += 1;
  }
  return rolledBack;
}

/**
 * Deletes an intent's memories, a few hundred per transaction (each removes them from the intent too, so
 * a rollback interrupted by another crash goes on where it stopped), then gives its conversation positions
 * back if nobody reserved after them, and deletes the intent with the last of them. `wait: false` skips an
 * intent another transaction holds (a live write, or another instance's sweep). True when it rolled back.
 */
async function rollBackIntent(id: string, { wait }: { wait: boolean }): Promise<boolean> {
  const prisma = await db();
  for (;;) {
    const step = await prisma.$transaction(async (tx) => {
      const [intent] = await tx.$queryRaw<
        {
          org_id: string;
          namespace_id: string;
          session_id: string | null;
          first_position: number | null;
          position_count: number | null;
          process_id: string;
          locked_until: Date;
        }[]
      >(
        Prisma.sql`SELECT org_id, namespace_id, session_id, first_position, position_count, process_id, locked_until
         FROM write_intents WHERE id = ${id} FOR UPDATE ${wait ? Prisma.empty : Prisma.sql`SKIP LOCKED`}`,
      );
      if (!intent) return "gone" as const;
      const memories = await tx.$queryRaw<{ memory_id: string }[]>(
        Prisma.sql`SELECT memory_id FROM write_intent_memories WHERE intent_id = ${id} LIMIT ${MEMORIES_PER_ROLLBACK}`,
      );
      const memoryIds = memories.map((row) => row.memory_id);
      if (memoryIds.length > 0) {
        await deleteMemories(tx, intent.org_id, intent.namespace_id, memoryIds, { reason: "write_rolled_back" });
        await tx.$executeRaw(
          Prisma.sql`DELETE FROM write_intent_memories
                     WHERE intent_id = ${id} AND memory_id = ANY(${memoryIds}::text[])`,
        );
      }
      if (memoryIds.length === MEMORIES_PER_ROLLBACK) return "more" as const;
      if (intent.session_id !== null && intent.first_position !== null && intent.position_count !== null) {
        await tx.$executeRaw(
          Prisma.sql`UPDATE conversation_sessions SET next_position = ${intent.first_position}::int
           WHERE namespace_id = ${intent.namespace_id} AND session_id = ${intent.session_id}
             AND next_position = ${intent.first_position}::int + ${intent.position_count}::int`,
        );
      }
      await tx.$executeRaw(Prisma.sql`DELETE FROM write_intents WHERE id = ${id}`);
      return "done" as const;
    });
    if (step === "gone") return false;
    if (step === "done") return true;
    await new Promise((resume) => setImmediate(resume));
  }
}

/** Sweeps abandoned intents every WRITE_INTENT_SWEEP_MS; returns the function that stops it. */
export function startWriteIntentSweeps(): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = rollBackAbandonedWrites().then(
      (count) => {
        if (count > 0) console.log(`[memgw] ${count} unfinished writes rolled back`);
      },
      (error) => console.error("[memgw] rolling back unfinished writes failed (tried again shortly):", error),
    );
  }, WRITE_INTENT_SWEEP_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
