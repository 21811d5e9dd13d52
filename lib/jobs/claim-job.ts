// Claiming the next due background job (lib/jobs/queue.ts runs it), fairly between organizations: one
// statement decides, so several instances on PostgreSQL and the embedded database behave alike.
import { queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

// A job whose instance died (several instances on PostgreSQL) is taken again 15 s later at most; the lease
// is renewed three times within it (queue.ts), so a runner that is only slow (a long statement) keeps it.
export const LEASE_MS = 15_000;

/** A job claimed by this process, which it runs under its lease. */
export interface ClaimedJob {
  id: string;
  orgId: string | null;
  kind: string;
  key: string | null;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
  /** Whether other jobs of the kinds asked for were due when this one was claimed. */
  moreDue: boolean;
}

/** How a worker shares its kinds of jobs between organizations (startJobWorker, claimJob). */
export interface ClaimOptions {
  /**
   * At most this many jobs of one kind of one organization run at once, across every instance (their `slot`s:
   * a partial unique index, so two instances claiming at once cannot both take the last one). None: no cap.
   */
  perOrg?: number;
}

/** A unique violation: another instance took the organization's last slot between this claim's read and write. */
const SLOT_TAKEN = "23505";
const CLAIM_TRIES = 5;

/**
 * Claims the next due job of these kinds (or one whose runner's lease ran out), or null. Fair between
 * organizations: the job of the organization with the fewest running jobs of its kind goes first, then that of
 * the one served longest ago (job_turns), then the oldest; an organization at its `perOrg` cap gets none, so
 * another's job never waits behind its queue. The statements that claim, renew and end jobs go straight to the
 * database (queryRows): every worker's poll claims, and a webhook endpoint's job is claimed and ended several
 * times a second under a stream of writes.
 */
export async function claimJob(kinds: string[], options: ClaimOptions = {}): Promise<ClaimedJob | null> {
  for (let tries = 1; ; tries++) {
    try {
      return await claimOnce(kinds, options.perOrg ?? null);
    } catch (error) {
      // Lost the race for a slot: the next try sees the winner's claim (and that organization at its cap).
      if ((error as { code?: string }).code !== SLOT_TAKEN || tries >= CLAIM_TRIES) throw error;
    }
  }
}

async function claimOnce(kinds: string[], perOrg: number | null): Promise<ClaimedJob | null> {
  // A running job holds its organization's slot until it ends, its lease run out or not (its runner may be
  // only slow): the cap counts it, and its next claim (another instance's, once the lease ran out) keeps it.
  const rows = await queryRows<{
    id: string;
    org_id: string | null;
    kind: string;
    key: string | null;
    payload: Record<string, unknown>;
    attempts: number;
    max_attempts: number;
    more_due: boolean;
  }>(
    Prisma.sql`WITH running AS (
       SELECT kind, org_id, count(*)::int AS jobs FROM jobs
       WHERE kind = ANY(${kinds}::text[]) AND status = 'running' AND org_id IS NOT NULL
       GROUP BY kind, org_id
     ),
     candidate AS (
       SELECT j.id, j.status AS was FROM jobs j
       LEFT JOIN running r ON r.kind = j.kind AND r.org_id = j.org_id
       LEFT JOIN job_turns t ON t.kind = j.kind AND t.org_id = j.org_id
       WHERE j.kind = ANY(${kinds}::text[])
         AND ((j.status = 'queued' AND j.run_after <= now()) OR (j.status = 'running' AND j.locked_until < now()))
         AND (j.status = 'running' OR j.org_id IS NULL OR ${perOrg}::int IS NULL
              OR coalesce(r.jobs, 0) < ${perOrg}::int)
       ORDER BY coalesce(r.jobs, 0), t.served_at NULLS FIRST, j.run_after, j.created_at
       LIMIT 1
       FOR UPDATE OF j SKIP LOCKED
     ),
     claimed AS (
       UPDATE jobs SET status = 'running', attempts = attempts + 1, run_again = false,
                       locked_until = now() + ${LEASE_MS} * interval '1 millisecond', updated_at = now(),
                       slot = CASE
                         WHEN candidate.was = 'running' THEN jobs.slot
                         WHEN jobs.org_id IS NULL OR ${perOrg}::int IS NULL THEN NULL
                         ELSE (SELECT min(free.slot) FROM generate_series(0, ${perOrg}::int - 1) AS free(slot)
                               WHERE NOT EXISTS (SELECT 1 FROM jobs held
                                                 WHERE held.kind = jobs.kind AND held.org_id = jobs.org_id
                                                   AND held.status = 'running' AND held.slot = free.slot))
                       END
       FROM candidate
       WHERE jobs.id = candidate.id
       RETURNING jobs.id, jobs.org_id, jobs.kind, jobs.key, jobs.payload, jobs.attempts, jobs.max_attempts
     ),
     turn AS (
       INSERT INTO job_turns (kind, org_id, served_at)
       SELECT kind, org_id, clock_timestamp() FROM claimed WHERE org_id IS NOT NULL
       ON CONFLICT (kind, org_id) DO UPDATE SET served_at = EXCLUDED.served_at
     )
     SELECT claimed.*,
            EXISTS (SELECT 1 FROM jobs due
                    WHERE due.kind = ANY(${kinds}::text[]) AND due.status = 'queued' AND due.run_after <= now()
                      AND due.id <> claimed.id) AS more_due
     FROM claimed`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    orgId: row.org_id,
    kind: row.kind,
    key: row.key,
    payload: row.payload,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    moreDue: row.more_due,
  };
}
