// Chunks indexed before full-text search cut unspaced scripts into words (lib/memory/common/word-breaks.ts): the
// migration that brought it marked those in such a script (`needs_word_breaks`), and they are indexed again here, a
// bounded batch per transaction, on the job worker. A batch is all or nothing: a process killed in the middle of one
// leaves its chunks as they were (still marked, still found as before), to be taken again; a finished one is never
// done twice. Queued at start-up while marked chunks exist.
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { enqueueJob, RetryLaterError, type JobRunner } from "@/lib/jobs/queue";
import { subtractTermStatistics } from "./deletion";
import { reindexChunks } from "./search-index";

export const WORD_BREAK_REINDEX_JOB = "search_word_breaks";
/** One job at a time, whichever instance queued it. */
const WORD_BREAK_REINDEX_KEY = "search-word-breaks";
/** Chunks per transaction: on the embedded database a batch holds every other write meanwhile. */
const CHUNKS_PER_BATCH = 100;
/** Batches per run of the job: it then yields the worker and goes on. */
const BATCHES_PER_RUN = 20;

interface MarkedChunk {
  id: string;
  namespace_id: string;
  content: string;
  role: string | null;
  scopes: unknown;
}

/** Up to `limit` marked chunks of the namespace, locked for this transaction (one a write holds is skipped). */
async function claimMarked(tx: Tx, namespaceId: string | null, limit: number): Promise<MarkedChunk[]> {
  const inNamespace = namespaceId ? Prisma.sql`AND namespace_id = ${namespaceId}` : Prisma.empty;
  return tx.$queryRaw<MarkedChunk[]>(
    Prisma.sql`SELECT id, namespace_id, content, role, scopes FROM memory_chunks
               WHERE needs_word_breaks ${inNamespace}
               LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
  );
}

/**
 * Indexes marked chunks again, a batch of one namespace's per transaction (the namespace's statistics lock is taken
 * after its chunks' row locks, as a deletion does), until none is left or `maxBatches` ran. Returns how many chunks
 * were indexed again and whether more may be left.
 */
export async function reindexWordBreaks(
  options: { maxBatches?: number; batchSize?: number } = {},
): Promise<{ reindexed: number; more: boolean }> {
  const batchSize = options.batchSize ?? CHUNKS_PER_BATCH;
  const maxBatches = options.maxBatches ?? Infinity;
  const prisma = await db();
  let reindexed = 0;
  for (let batch = 1; batch <= maxBatches; batch += 1) {
    const done = await prisma.$transaction(async (tx) => {
      const namespaceId = (await claimMarked(tx, null, 1))[0]?.namespace_id;
      if (!namespaceId) return 0;
      const chunks = await claimMarked(tx, namespaceId, batchSize);
      if (chunks.length === 0) return 0;
      const ids = chunks.map((c) => c.id);
      await subtractTermStatistics(tx, namespaceId, ids);
      await tx.$executeRaw(
        Prisma.sql`DELETE FROM chunk_terms WHERE namespace_id = ${namespaceId} AND chunk_id = ANY(${ids}::text[])`,
      );
      await reindexChunks(tx, namespaceId, chunks);
      return chunks.length;
    });
    reindexed += done;
    if (done === 0) return { reindexed, more: false };
    // Other requests get the database between batches.
    await new Promise((resume) => setImmediate(resume));
  }
  return { reindexed, more: true };
}

/** The job's runner: BATCHES_PER_RUN batches, then, with more left, the job runs again at once. */
export const wordBreakJobRunners: Record<string, JobRunner> = {
  [WORD_BREAK_REINDEX_JOB]: async () => {
    const { reindexed, more } = await reindexWordBreaks({ maxBatches: BATCHES_PER_RUN });
    if (reindexed > 0) console.log(`[memgw] search: ${reindexed} chunks indexed again with word breaks`);
    if (more) throw new RetryLaterError(0, "more chunks to index again");
  },
};

/** Queues the re-indexing when a marked chunk exists, unless it is queued or running already. */
export async function requestWordBreakReindex(): Promise<boolean> {
  const prisma = await db();
  const [row] = await prisma.$queryRaw<{ marked: boolean }[]>(
    Prisma.sql`SELECT EXISTS (SELECT 1 FROM memory_chunks WHERE needs_word_breaks) AS marked`,
  );
  if (!row.marked) return false;
  await enqueueJob({ kind: WORD_BREAK_REINDEX_JOB, key: WORD_BREAK_REINDEX_KEY });
  return true;
}
