// Expiry that really deletes: a memory past its expires_at is hidden from every read at once (memoryFilter,
// getMemory) and deleted for real — row, chunks, postings, vectors, term statistics and history — by a sweep
// that runs every SWEEP_INTERVAL_MS on the job queue (lib/jobs/queue.ts). The sweep's job has a fixed key, so
// with several instances one sweep runs at a time; each instance only asks for it to be queued.
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { enqueueJob, startJobWorker, type JobRunner } from "@/lib/jobs/queue";
import { deleteMemories } from "../store/deletion";

export const EXPIRY_SWEEP_JOB = "memory_expiry_sweep";
/** At most one sweep queued or running, whichever instance asked for it. */
const EXPIRY_SWEEP_KEY = "memory-expiry-sweep";
/** A memory is deleted at most this long (plus one sweep's work) after it expires: well within a minute. */
export const SWEEP_INTERVAL_MS = 15_000;
/** Memories deleted per transaction: PGlite has one connection, so a batch holds every other write meanwhile. */
const MEMORIES_PER_BATCH = 200;
/**
 * Batches per sweep: what is left is deleted by the next sweep, so that a backlog (a million memories with
 * the same expiry) never turns one job into an hour-long one. 50 × 200 memories every 15 s.
 */
const BATCHES_PER_SWEEP = 50;

/**
 * Deletes memories whose expiry has passed, oldest expiry first, a bounded batch per transaction (rows another
 * transaction holds, e.g. a PATCH extending the expiry, are skipped and seen again next time). Returns how
 * many were deleted.
 */
export async function sweepExpiredMemories(
  options: { batchSize?: number; maxBatches?: number } = {},
): Promise<{ deleted: number }> {
  const batchSize = options.batchSize ?? MEMORIES_PER_BATCH;
  const maxBatches = options.maxBatches ?? BATCHES_PER_SWEEP;
  const prisma = await db();
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const swept = await prisma.$transaction(async (tx) => {
      const expired = await tx.$queryRaw<{ id: string; org_id: string; namespace_id: string }[]>(
        Prisma.sql`SELECT id, org_id, namespace_id FROM memories
         WHERE expires_at IS NOT NULL AND expires_at <= now()
         ORDER BY expires_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`,
      );
      const byNamespace = new Map<string, { orgId: string; namespaceId: string; ids: string[] }>();
      for (const row of expired) {
        const group = byNamespace.get(row.namespace_id) ?? {
          orgId: row.org_id,
          namespaceId: row.namespace_id,
          ids: [],
        };
        group.ids.push(row.id);
        byNamespace.set(row.namespace_id, group);
      }
      for (const group of byNamespace.values())
        await deleteMemories(tx, group.orgId, group.namespaceId, group.ids, { reason: "expiry" });
      return expired.length;
    });
    deleted += swept;
    if (swept < batchSize) break;
    // Other requests get the database between batches.
    await new Promise((resume) => setImmediate(resume));
  }
  return { deleted };
}

/**
 * The sweep's runner. A failure is logged, not retried with backoff: the next sweep is queued within
 * SWEEP_INTERVAL_MS anyway, and a failed job row every 15 s would pile up.
 */
export const expiryJobRunners: Record<string, JobRunner> = {
  [EXPIRY_SWEEP_JOB]: async () => {
    try {
      const { deleted } = await sweepExpiredMemories();
      if (deleted > 0) console.log(`[memgw] expiry sweep: ${deleted} expired memories deleted`);
    } catch (error) {
      console.error("[memgw] the expiry sweep failed (it runs again shortly):", error);
    }
  },
};

/** Queues a sweep unless one is queued or running (on any instance). */
export async function requestExpirySweep(): Promise<void> {
  await enqueueJob({ kind: EXPIRY_SWEEP_JOB, key: EXPIRY_SWEEP_KEY, maxAttempts: 1 });
}

/**
 * Queues a sweep every SWEEP_INTERVAL_MS and runs sweeps on a worker of their own (an integration's long sync
 * on the other worker never delays one). Returns the function that stops both.
 */
export function startExpirySweeps(): () => Promise<void> {
  const request = () => {
    requestExpirySweep().catch((error) => console.error("[memgw] queuing the expiry sweep failed:", error));
  };
  request();
  const timer = setInterval(request, SWEEP_INTERVAL_MS);
  timer.unref();
  const stopWorker = startJobWorker(expiryJobRunners);
  return async () => {
    clearInterval(timer);
    await stopWorker();
  };
}
