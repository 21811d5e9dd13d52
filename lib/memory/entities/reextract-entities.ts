// Entities extracted again when the extractor changes (ENTITY_EXTRACTOR_VERSION), as a change of embedding model
// re-embeds: memories written before entities existed (entities_version NULL) or by another version are
// extracted again a bounded batch per transaction. A batch is all or nothing, so a process killed in the middle
// of one leaves its memories as they were, to be taken again; a finished one is never done twice (its
// memories carry the current version). Queued at start-up when such memories exist; `memgw entities reextract`.
import type { Scopes } from "@/lib/auth/scopes";
import { db, type Tx } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { crashPoint } from "@/lib/http/request-writes";
import { enqueueJob, RetryLaterError, type JobRunner } from "@/lib/jobs/queue";
import { ENTITY_EXTRACTOR_VERSION } from "./extract-entities";
import { relinkEntities } from "./link-entities";

export const ENTITY_REEXTRACT_JOB = "entity_reextract";
/** One job at a time, whichever instance queued it. */
const ENTITY_REEXTRACT_KEY = "entity-reextract";
/**
 * Memories per transaction: on the embedded database a batch holds every other write meanwhile. Extraction
 * costs about 0.4 ms a turn (docs/entities.md), so a batch is a few tens of milliseconds of work.
 */
const MEMORIES_PER_BATCH = 50;
/** Batches per run of the job: it then yields the worker (an integration's sync may be waiting) and goes on. */
const BATCHES_PER_RUN = 40;

interface StaleMemory {
  id: string;
  org_id: string;
  namespace_id: string;
  content: string;
  role: string | null;
  occurred_at: Date;
  scopes: Scopes;
}

/**
 * Up to `limit` memories whose entities another extractor found, locked for this transaction (one a write holds
 * is skipped: it is seen again by the next batch). Three range scans of memories_entities_version_idx
 * (entities_version, namespace_id) rather than one `IS DISTINCT FROM`, which no index serves.
 */
async function claimStaleMemories(tx: Tx, namespaceId: string | null, limit: number): Promise<StaleMemory[]> {
  const inNamespace = namespaceId ? Prisma.sql`AND namespace_id = ${namespaceId}` : Prisma.empty;
  const claimed: StaleMemory[] = [];
  for (const stale of [
    Prisma.sql`entities_version IS NULL`,
    Prisma.sql`entities_version < ${ENTITY_EXTRACTOR_VERSION}`,
    Prisma.sql`entities_version > ${ENTITY_EXTRACTOR_VERSION}`,
  ]) {
    if (claimed.length >= limit) break;
    claimed.push(
      ...(await tx.$queryRaw<StaleMemory[]>(
        Prisma.sql`SELECT id, org_id, namespace_id, content, role, occurred_at, scopes FROM memories
                   WHERE ${stale} ${inNamespace}
                   LIMIT ${limit - claimed.length} FOR UPDATE SKIP LOCKED`,
      )),
    );
  }
  return claimed;
}

/** Whether any memory (of the namespace) waits to be extracted again: a few index probes. */
export async function hasStaleEntities(namespaceId: string | null = null): Promise<boolean> {
  const prisma = await db();
  const inNamespace = namespaceId ? Prisma.sql`AND namespace_id = ${namespaceId}` : Prisma.empty;
  const version = ENTITY_EXTRACTOR_VERSION;
  const [row] = await prisma.$queryRaw<{ stale: boolean }[]>(
    Prisma.sql`SELECT EXISTS (SELECT 1 FROM memories WHERE entities_version IS NULL ${inNamespace})
                   OR EXISTS (SELECT 1 FROM memories WHERE entities_version < ${version} ${inNamespace})
                   OR EXISTS (SELECT 1 FROM memories WHERE entities_version > ${version} ${inNamespace})
               AS stale`,
  );
  return row.stale;
}

export interface ReextractOptions {
  /** Only this namespace's memories (every organization's otherwise). */
  namespaceId?: string | null;
  batchSize?: number;
  /** Stop after this many batches (what is left is reported as `more`). */
  maxBatches?: number;
}

/**
 * Extracts the entities of stale memories again, a batch per transaction, until none is left or maxBatches
 * ran. Returns how many memories were extracted again and whether more may be left.
 *
 * A batch holds one namespace's memories: relinking takes the namespace's statistics lock after its memories'
 * row locks, as an erasure does namespace by namespace (forget-in-every-namespace.ts). A batch spanning two
 * namespaces would hold the second's memory rows while it waits for the first's statistics lock, which such an
 * erasure may hold while it waits for those rows: a deadlock (40P01) on PostgreSQL.
 */
export async function reextractEntities(
  options: ReextractOptions = {},
): Promise<{ reextracted: number; more: boolean }> {
  const batchSize = options.batchSize ?? MEMORIES_PER_BATCH;
  const maxBatches = options.maxBatches ?? Infinity;
  const prisma = await db();
  let reextracted = 0;
  for (let batch = 1; batch <= maxBatches; batch += 1) {
    const done = await prisma.$transaction(async (tx) => {
      // Every namespace's: the one of a stale memory, locked here (and claimed again below: a transaction's own
      // row locks do not make it skip the row).
      const namespaceId = options.namespaceId ?? (await claimStaleMemories(tx, null, 1))[0]?.namespace_id;
      if (!namespaceId) return 0;
      const stale = await claimStaleMemories(tx, namespaceId, batchSize);
      if (stale.length === 0) return 0;
      await relinkEntities(
        tx,
        stale[0].org_id,
        namespaceId,
        stale.map((m) => ({ id: m.id, content: m.content, role: m.role, occurredAt: m.occurred_at, scopes: m.scopes })),
      );
      crashPoint(`entities.reextract.batch.${batch}`);
      return stale.length;
    });
    reextracted += done;
    // A short batch ends one namespace's memories: the last, when only one namespace is asked for.
    if (done === 0 || (options.namespaceId && done < batchSize)) return { reextracted, more: false };
    // Other requests get the database between batches.
    await new Promise((resume) => setImmediate(resume));
  }
  return { reextracted, more: true };
}

/**
 * The whole re-extraction, for an operator (`memgw entities reextract [--namespace ID]`): every stale memory
 * (of the namespace), with what it did.
 */
export async function reextractEntitiesForOperator(namespaceId?: string) {
  if (namespaceId) {
    const prisma = await db();
    if (!(await prisma.namespace.findUnique({ where: { id: namespaceId }, select: { id: true } })))
      throw notFound(`Namespace ${namespaceId}`);
  }
  const { reextracted } = await reextractEntities({ namespaceId });
  return { namespace_id: namespaceId ?? null, extractor_version: ENTITY_EXTRACTOR_VERSION, reextracted };
}

/**
 * The job's runner: BATCHES_PER_RUN batches, then, with more left, the job is run again at once without
 * spending an attempt, so a backlog of millions never holds the worker for an hour.
 */
export const entityJobRunners: Record<string, JobRunner> = {
  [ENTITY_REEXTRACT_JOB]: async () => {
    const { reextracted, more } = await reextractEntities({ maxBatches: BATCHES_PER_RUN });
    if (reextracted > 0) console.log(`[memgw] entities: ${reextracted} memories extracted again`);
    if (more) throw new RetryLaterError(0, "more memories to extract again");
  },
};

/** Queues the re-extraction when some memory needs it, unless it is queued or running already. */
export async function requestEntityReextraction(): Promise<boolean> {
  if (!(await hasStaleEntities())) return false;
  await enqueueJob({ kind: ENTITY_REEXTRACT_JOB, key: ENTITY_REEXTRACT_KEY });
  return true;
}
