// The activity log keeps ACTIVITY_RETENTION_DAYS days (default 90): older rows are deleted in the
// background, a bounded batch at a time, so that recall and remember (which share PGlite's one connection
// with it) wait for at most one short statement.
import { setting, type SettingsSource } from "@/lib/config";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { claimScheduledRun } from "@/lib/jobs/schedule";

/** Rows per DELETE: tens of milliseconds on PGlite (measured: 500 rows of a 1,000,000-row log). */
export const PRUNE_BATCH_SIZE = 500;
/**
 * How often the pruning runs, once across every instance sharing the database (lib/jobs/schedule.ts); each
 * instance asks every few minutes, the first time a minute after its start (not in the start's way).
 */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const PRUNE_ASK_INTERVAL_MS = 5 * 60 * 1000;
const FIRST_PRUNE_DELAY_MS = 60 * 1000;
const PRUNE_TASK = "activity-retention";

/**
 * The retention setting (checked with the others at start-up, so a wrong one stops the start rather than
 * silently keeping everything or nothing).
 */
export function activityRetentionDays(env?: SettingsSource): number {
  return setting("ACTIVITY_RETENTION_DAYS", env);
}

export interface PruneOptions {
  retentionDays?: number;
  now?: Date;
  batchSize?: number;
  /** Stops between batches when it returns true (the server is shutting down). */
  stopped?: () => boolean;
}

/**
 * Deletes activity rows older than the retention period, organization by organization (each DELETE
 * follows the (org_id, created_at) index), `batchSize` rows per statement, yielding to other work between
 * statements. Safe with several instances running it at once: each batch skips rows another instance has
 * locked (FOR UPDATE SKIP LOCKED), and deleting what is already gone is a no-op. Also forgets identity
 * summaries left with neither memories nor activity within the period. Returns how many rows it deleted.
 */
export async function pruneActivity(options: PruneOptions = {}): Promise<number> {
  const retentionDays = options.retentionDays ?? activityRetentionDays();
  const batchSize = options.batchSize ?? PRUNE_BATCH_SIZE;
  const cutoff = new Date((options.now ?? new Date()).getTime() - retentionDays * 86_400_000);
  const prisma = await db();
  const organizations = await prisma.organization.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  let deleted = 0;
  for (const { id: orgId } of organizations) {
    for (;;) {
      if (options.stopped?.()) return deleted;
      const n = await prisma.$executeRaw(
        Prisma.sql`DELETE FROM activity_logs WHERE id IN (
           SELECT id FROM activity_logs WHERE org_id = ${orgId} AND created_at < ${cutoff}
           LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`,
      );
      deleted += n;
      if (n < batchSize) break;
      await new Promise((resume) => setImmediate(resume));
    }
    await prisma.$executeRaw(
      Prisma.sql`DELETE FROM identity_summaries
       WHERE org_id = ${orgId} AND memory_count = 0 AND (last_activity_at IS NULL OR last_activity_at < ${cutoff})`,
    );
  }
  return deleted;
}

/**
 * Runs pruneActivity now-ish and then every hour, until the returned function is called, and after it each
 * of `alsoHourly` (other deletions of what has outlived its use): on one instance per hour, whichever claims
 * the hour (claimScheduledRun). The timer never keeps the process alive; a failed run is logged and the next
 * one tries again.
 */
export function startActivityPruning(
  retentionDays = activityRetentionDays(),
  alsoHourly: { name: string; run: () => Promise<number> }[] = [],
): () => Promise<void> {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout;
  const prune = async () => {
    if (!(await claimScheduledRun(PRUNE_TASK, PRUNE_INTERVAL_MS))) return;
    const deleted = await pruneActivity({ retentionDays, stopped: () => stopped }).catch((error) => {
      console.error("[memgw] pruning the activity log failed:", error);
      return 0;
    });
    if (deleted > 0) console.log(`[memgw] activity log: ${deleted} rows older than ${retentionDays} days deleted`);
    for (const task of alsoHourly) {
      if (stopped) return;
      await task.run().catch((error) => console.error(`[memgw] ${task.name} failed:`, error));
    }
  };
  const schedule = (delay: number) => {
    timer = setTimeout(() => {
      running = prune()
        .catch((error) => console.error("[memgw] the hourly maintenance could not start:", error))
        .finally(() => {
          if (!stopped) schedule(PRUNE_ASK_INTERVAL_MS);
        });
    }, delay);
    timer.unref();
  };
  schedule(FIRST_PRUNE_DELAY_MS);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    // A batch under way finishes before the database closes.
    await running;
  };
}
