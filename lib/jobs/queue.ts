// Durable background jobs in the database (integration syncs today). A job is claimed with
// FOR UPDATE SKIP LOCKED and held by a lease the runner renews while it works: with several instances on
// PostgreSQL each job runs once at a time, and a job whose runner died (kill -9, a lost machine) is taken
// again when its lease ends. On the embedded database only this process can hold the data directory, so
// jobs left running by a previous process are queued again at start. Failures retry with exponential
// backoff up to the job's max_attempts; a runner can ask for a later retry without spending an attempt
// (a provider's Retry-After). Claims are fair between organizations (claimJob): one that queued hundreds of
// jobs holds at most its cap of a kind's workers, and another's job is claimed before its next one.
import { db, outsideBackgroundWork, queryRows, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { claimJob, LEASE_MS, type ClaimedJob, type ClaimOptions } from "./claim-job";

export type { ClaimedJob } from "./claim-job";

/** Three renewals within a lease (LEASE_MS, claim-job.ts): a runner that is only slow keeps its job. */
const LEASE_RENEWAL_MS = 5_000;
const POLL_INTERVAL_MS = 2_000;
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_MAX_MS = 30 * 60_000;
/** Kept for people to read what failed (the connection shows its own error); older ones are deleted. */
const FAILED_JOB_RETENTION_DAYS = 30;

/**
 * Runs a job. `exhausted`, if given, is told of a job taken again after every one of its attempts ended with
 * its process (killed or crashed while running it: no error was ever thrown), before the job is failed
 * without running again, so that what waits for the job can say it failed.
 */
export type JobRunner = ((job: ClaimedJob) => Promise<void>) & {
  exhausted?: (job: ClaimedJob) => Promise<void>;
  /** How long after its `attempts`-th failed attempt the job runs again (default: 30 s, doubling, at most 30 min). */
  backoffMs?: (attempts: number) => number;
};

/** Thrown by a runner: run the job again after `delayMs`, without counting this attempt. */
export class RetryLaterError extends Error {
  constructor(
    readonly delayMs: number,
    message: string,
  ) {
    super(message);
    this.name = "RetryLaterError";
  }
}

/** Thrown by a runner: the job cannot succeed by trying again (it is marked failed at once). */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentJobError";
  }
}

export interface NewJob {
  kind: string;
  orgId?: string;
  /** At most one queued or running job per key: enqueuing another returns null (unless `runAgain`). */
  key?: string;
  /**
   * A job of the key already queued is due now instead, and one running runs again once it ends: for a job
   * whose work grew after it read it (a webhook endpoint's new events).
   */
  runAgain?: boolean;
  payload?: Record<string, unknown>;
  runAfter?: Date;
  maxAttempts?: number;
}

/**
 * The conflict clause of a job insert (`INSERT INTO jobs …`) whose key may have a job queued or running that
 * must not miss what the insert was for: the queued one becomes due by the insert's time (if it was to run
 * later); the running one, which may have read its work before this change, runs again when it ends
 * (finishJob), not before the insert's time: the first request while it runs sets when (a running job's
 * run_after is spent), and later ones may only make it sooner. The row stays locked until the inserting
 * transaction ends, so a runner finishing meanwhile sees the request.
 */
export const RUN_AGAIN_ON_CONFLICT = Prisma.sql`ON CONFLICT (key) WHERE status IN ('queued', 'running') DO UPDATE
  SET run_again = jobs.status = 'running',
      run_after = CASE WHEN jobs.status = 'running' AND NOT jobs.run_again THEN EXCLUDED.run_after
                       ELSE LEAST(jobs.run_after, EXCLUDED.run_after) END,
      updated_at = now()`;

/**
 * Queues a job; null when a job with the same key is already queued or running (unless `runAgain`: then the
 * id of that job). Within `tx` (queued with the change that needs it, so neither exists without the other),
 * the caller wakes the workers once it commits.
 */
export async function enqueueJob(job: NewJob, tx?: Tx): Promise<{ id: string } | null> {
  const prisma = tx ?? (await db());
  const onConflict = job.runAgain
    ? RUN_AGAIN_ON_CONFLICT
    : Prisma.sql`ON CONFLICT (key) WHERE status IN ('queued', 'running') DO NOTHING`;
  const rows = await prisma.$queryRaw<{ id: string }[]>(
    Prisma.sql`INSERT INTO jobs (id, org_id, kind, key, payload, run_after, max_attempts, updated_at)
     VALUES (${newId("job")}, ${job.orgId ?? null}, ${job.kind}, ${job.key ?? null},
             ${JSON.stringify(job.payload ?? {})}::jsonb, ${job.runAfter ?? new Date()}, ${job.maxAttempts ?? 5}, now())
     ${onConflict}
     RETURNING id`,
  );
  if (rows.length > 0 && !tx) wakeJobWorkers(job.kind, 1);
  return rows[0] ?? null;
}

/** Whether a job with this key is queued or running. */
export async function activeJob(key: string): Promise<{ id: string; status: string } | null> {
  const prisma = await db();
  const rows = await prisma.$queryRaw<{ id: string; status: string }[]>(
    Prisma.sql`SELECT id, status FROM jobs WHERE key = ${key} AND status IN ('queued', 'running') LIMIT 1`,
  );
  return rows[0] ?? null;
}

/** Removes the queued (not yet running) job of a key, e.g. when what it would work on is deleted. */
export async function cancelQueuedJob(key: string): Promise<void> {
  const prisma = await db();
  await prisma.$executeRaw(Prisma.sql`DELETE FROM jobs WHERE key = ${key} AND status = 'queued'`);
}

/**
 * A claim is the job's id with its attempt number (each claim increments it): a runner whose lease ran out
 * and whose job another runner took can neither renew nor finish it.
 */
const owned = (job: ClaimedJob) => Prisma.sql`id = ${job.id} AND attempts = ${job.attempts} AND status = 'running'`;

async function renewLease(job: ClaimedJob): Promise<void> {
  await queryRows(
    Prisma.sql`UPDATE jobs SET locked_until = now() + ${LEASE_MS} * interval '1 millisecond' WHERE ${owned(job)}`,
  );
}

function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/** Runs one claimed job, renewing its lease meanwhile, and records how it ended. */
export async function runClaimedJob(job: ClaimedJob, runner: JobRunner): Promise<void> {
  // Claimed once more than it may be: its earlier attempts took their process down with them (a job that
  // crashes the server must not crash it again at every start).
  if (job.attempts > job.maxAttempts) {
    const message = `The process running it stopped (killed, crashed) during each of its ${job.maxAttempts} attempts.`;
    await runner
      .exhausted?.(job)
      .catch((error) => console.error(`[memgw] job ${job.id}'s exhausted hook failed:`, error));
    await queryRows(
      Prisma.sql`UPDATE jobs SET status = 'failed', locked_until = NULL, last_error = ${message}, updated_at = now()
                 WHERE ${owned(job)}`,
    );
    return;
  }
  // Renewed as a request's statement: a worker's background connections may all wait on a long write's row
  // lock, and a lease that ran out meanwhile would let another instance run the job at the same time.
  const renewal = setInterval(() => {
    outsideBackgroundWork(() => renewLease(job)).catch((error) =>
      console.error(`[memgw] renewing job ${job.id}'s lease failed:`, error),
    );
  }, LEASE_RENEWAL_MS);
  renewal.unref();
  try {
    await runner(job);
    await finishJob(job);
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (error instanceof RetryLaterError) {
      // Asked for again meanwhile: what it waits for is not all there is (due when asked, or at the retry).
      const retryAt = Prisma.sql`now() + ${error.delayMs} * interval '1 millisecond'`;
      const [requeued] = await queryRows<{ due_in_ms: number }>(
        Prisma.sql`UPDATE jobs SET status = 'queued', attempts = attempts - 1, locked_until = NULL,
                         last_error = ${message}, updated_at = now(), run_again = false,
                         run_after = CASE WHEN run_again THEN LEAST(GREATEST(run_after, now()), ${retryAt})
                                          ELSE ${retryAt} END
         WHERE ${owned(job)}
         RETURNING ${DUE_IN_MS}`,
      );
      if (requeued) wakeWhenDue(job.kind, requeued.due_in_ms);
    } else if (error instanceof PermanentJobError || job.attempts >= job.maxAttempts) {
      await queryRows(
        Prisma.sql`UPDATE jobs SET status = 'failed', locked_until = NULL, last_error = ${message}, updated_at = now()
                   WHERE ${owned(job)}`,
      );
    } else {
      const retryInMs = Math.min(BACKOFF_MAX_MS, (runner.backoffMs ?? backoffMs)(job.attempts));
      const [requeued] = await queryRows<{ due_in_ms: number }>(
        Prisma.sql`UPDATE jobs SET status = 'queued', locked_until = NULL, last_error = ${message},
                         run_after = now() + ${retryInMs} * interval '1 millisecond',
                         updated_at = now()
         WHERE ${owned(job)}
         RETURNING ${DUE_IN_MS}`,
      );
      if (requeued) wakeWhenDue(job.kind, requeued.due_in_ms);
    }
  } finally {
    clearInterval(renewal);
  }
}

/**
 * Deletes a job that ended well, unless it was asked for again while it ran: that one is queued again, due
 * when it was asked for (RUN_AGAIN_ON_CONFLICT), and this process's workers are woken then.
 */
async function finishJob(job: ClaimedJob): Promise<void> {
  // The delete waits for a transaction that asks for the job again (its row lock) and then sees the request.
  const deleted = await queryRows(Prisma.sql`DELETE FROM jobs WHERE ${owned(job)} AND NOT run_again RETURNING id`);
  if (deleted.length > 0) return;
  const [requeued] = await queryRows<{ due_in_ms: number }>(
    Prisma.sql`UPDATE jobs SET status = 'queued', run_again = false, attempts = 0, locked_until = NULL,
                     last_error = NULL, run_after = GREATEST(run_after, now()), updated_at = now()
               WHERE ${owned(job)}
               RETURNING ${DUE_IN_MS}`,
  );
  if (requeued) wakeWhenDue(job.kind, requeued.due_in_ms);
}

const DUE_IN_MS = Prisma.sql`ceil(extract(epoch FROM run_after - now()) * 1000)::int AS due_in_ms`;

/** A wake-up timed for when a job becomes due comes this much later, so that the database's clock has passed it. */
const WAKE_AFTER_DUE_MS = 5;
/** A job due later than this is left to the workers' poll (a timer for each retry days away is no help). */
const WAKE_AT_MOST_AFTER_MS = 60_000;

/**
 * Wakes one of this process's workers when a job it queued again is due: the writes that asked for it while it
 * ran left the waking to this (record-events.ts).
 */
function wakeWhenDue(kind: string, dueInMs: number) {
  if (dueInMs <= 0) wakeJobWorkers(kind, 1);
  else if (dueInMs <= WAKE_AT_MOST_AFTER_MS)
    setTimeout(() => wakeJobWorkers(kind, 1), dueInMs + WAKE_AFTER_DUE_MS).unref();
}

/**
 * Runs due jobs one after another until none is due (tests drive syncs with it; the worker below is
 * the same loop on a timer). Returns how many ran.
 */
export async function runDueJobs(runners: Record<string, JobRunner>, options: ClaimOptions = {}): Promise<number> {
  let ran = 0;
  for (;;) {
    const job = await claimJob(Object.keys(runners), options);
    if (!job) return ran;
    await runClaimedJob(job, runners[job.kind]);
    ran += 1;
  }
}

/**
 * Jobs a previous process left running: on the embedded database no other process can be running
 * them (this one holds the data directory), so they are due again now rather than when their lease ends.
 */
export async function requeueAbandonedJobs(): Promise<number> {
  const prisma = await db();
  return prisma.$executeRaw(
    Prisma.sql`UPDATE jobs SET status = 'queued', locked_until = NULL, run_after = now(), updated_at = now()
     WHERE status = 'running'`,
  );
}

interface Waker {
  kinds: readonly string[];
  busy(): boolean;
  /** Starts an idle worker; a busy one looks again once its job is done. */
  wake(): void;
}

/** Each worker of this process. */
const wakers = new Set<Waker>();

/**
 * Starts this process's workers (those that run `kind`, or all) on what was queued now, not at their next poll:
 * as many idle ones as `jobs` were queued (a worker that claims a job while more are due starts another), and
 * every busy one looks again when its job is done.
 */
export function wakeJobWorkers(kind?: string, jobs = Infinity) {
  let idleToWake = jobs;
  for (const waker of wakers) {
    if (kind !== undefined && !waker.kinds.includes(kind)) continue;
    if (waker.busy()) waker.wake();
    else if (idleToWake > 0) {
      idleToWake -= 1;
      waker.wake();
    }
  }
}

/** How long stopping waits for the job under way; one still running then is run again after the restart. */
const STOP_WAIT_MS = 5_000;

/**
 * Starts `workers` workers (1 unless given), each running due jobs one at a time, until the returned function is
 * called (which waits a few seconds for the jobs under way). A job queued by this process starts at once; others
 * within `pollIntervalMs` (POLL_INTERVAL_MS unless given): the workers share one poll, which wakes one idle worker
 * (none while all are busy: each looks again when its job is done), and a worker that claims a job while more are
 * due wakes another. Eight delivery workers polling on their own timers made 32 claims a second on an idle server.
 * With `perOrg`, an organization's jobs of a kind run at most that many at once across every worker and instance
 * (see claimJob); such a worker serves one kind, since the cap is per kind (throws otherwise): with two, one
 * organization could hold a worker with each.
 */
export function startJobWorker(
  runners: Record<string, JobRunner>,
  options: {
    workers?: number;
    pollIntervalMs?: number;
    /** Runs each of the worker's turns (claims, jobs and all), whoever woke it: e.g. onBackgroundConnections. */
    within?: (work: () => Promise<void>) => Promise<void>;
  } & ClaimOptions = {},
): () => Promise<void> {
  if (options.perOrg !== undefined && Object.keys(runners).length !== 1)
    throw new Error(`A job worker capped per organization serves one kind, not ${Object.keys(runners).join(", ")}`);
  const within = options.within ?? ((work) => work());
  const pool = Array.from({ length: options.workers ?? 1 }, () =>
    jobWorker(Object.keys(runners), (job) => runClaimedJob(job, runners[job.kind]), within, options.perOrg),
  );
  const poll = () => pool.find((worker) => !worker.busy())?.wake();
  const timer = setInterval(poll, options.pollIntervalMs ?? POLL_INTERVAL_MS);
  timer.unref();
  for (const worker of pool) wakers.add(worker);
  setTimeout(poll, 0).unref();
  return async () => {
    clearInterval(timer);
    for (const worker of pool) wakers.delete(worker);
    await Promise.race([
      Promise.all(pool.map((worker) => worker.stop())),
      new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref()),
    ]);
  };
}

/** One worker: claims and runs jobs of `kinds` while they are due, each time it is woken. */
function jobWorker(
  kinds: string[],
  run: (job: ClaimedJob) => Promise<void>,
  within: (work: () => Promise<void>) => Promise<void>,
  perOrg: number | undefined,
): Waker & { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  /** Woken while busy: something was queued during the claim or the job, which this turn may not have seen. */
  let wokenWhileBusy = false;
  let lastCleanup = 0;
  const wake = () => {
    if (stopped) return;
    if (busy) {
      wokenWhileBusy = true;
      return;
    }
    busy = true;
    running = within(async () => {
      try {
        if (Date.now() - lastCleanup > 3_600_000) {
          lastCleanup = Date.now();
          await deleteOldFailedJobs();
        }
        while (!stopped) {
          wokenWhileBusy = false;
          const job = await claimJob(kinds, { perOrg });
          if (job?.moreDue) wakeJobWorkers(job.kind, 1);
          if (job) await run(job);
          // Claiming again finds nothing unless more were due or were queued meanwhile (the poll finds the rest).
          // A wake-up during a claim that found nothing counts too: the job it was for may have committed after
          // the claim's snapshot, and every write after it leaves the waking to that one (record-events.ts).
          if (!job?.moreDue && !wokenWhileBusy) break;
        }
      } catch (error) {
        console.error("[memgw] the job worker failed (it tries again):", error);
      } finally {
        busy = false;
      }
    });
  };
  return {
    kinds,
    busy: () => busy,
    wake,
    stop: () => {
      stopped = true;
      return running;
    },
  };
}

async function deleteOldFailedJobs() {
  await queryRows(
    Prisma.sql`DELETE FROM jobs
               WHERE status = 'failed' AND updated_at < now() - ${FAILED_JOB_RETENTION_DAYS} * interval '1 day'`,
  );
  // An organization not served for this long (or deleted) goes first next time anyway: it has no turn to keep.
  await queryRows(
    Prisma.sql`DELETE FROM job_turns WHERE served_at < now() - ${FAILED_JOB_RETENTION_DAYS} * interval '1 day'`,
  );
}
