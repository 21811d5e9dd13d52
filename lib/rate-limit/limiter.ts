import { createHash } from "node:crypto";
import { db, getDatabase } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/** A limit: at most `limit` hits per `windowMs` for one key (a client address, an email, an API key). */
export interface RateLimitRule {
  /** Names the counter family, e.g. `password-per-ip`; counters of different rules never mix. */
  name: string;
  limit: number;
  windowMs: number;
  /**
   * Counted in this process when the database is embedded: one server process owns it (the data directory
   * is locked), so the count is the same as the database's, without a write on every hit. For the rule every
   * API request passes, where that write was a twentieth of a short recall. A restart starts the window again.
   */
  inProcessWhenEmbedded?: boolean;
}

export interface RateLimitVerdict {
  allowed: boolean;
  limit: number;
  /** Hits left in the current window after this one (0 once refused). */
  remaining: number;
  /** Seconds until the window ends and the count starts again (≥ 1). */
  resetSeconds: number;
}

// Stale windows are swept now and then by whichever request happens by, so the table stays small
// without a job of its own.
const SWEEP_EVERY_HITS = 500;
const SWEEP_AFTER_MS = 24 * 60 * 60_000;
let hitsSinceSweep = 0;

/**
 * Counts one hit of `key` under `rule` and says whether it is within the limit. Windows are aligned to
 * multiples of `windowMs`; the counters live in the database, so several server instances share them
 * (an in-process counter would let N instances allow N times the limit), except a rule's that may live in
 * the process (`inProcessWhenEmbedded`). Keys are stored hashed: they may be email addresses or client
 * addresses of any length.
 */
export async function hitRateLimit(rule: RateLimitRule, key: string, now = Date.now()): Promise<RateLimitVerdict> {
  const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
  const count =
    rule.inProcessWhenEmbedded && (await getDatabase()).kind === "pglite"
      ? countInProcess(rule, key, windowStart)
      : await countInDatabase(rule, key, windowStart, now);
  return {
    allowed: count <= rule.limit,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + rule.windowMs - now) / 1000)),
  };
}

// On globalThis because Next bundles route modules separately: one set of counters per process.
const holder = globalThis as typeof globalThis & {
  __memgwRateCounters?: Map<string, { windowStart: number; count: number }>;
};
const processCounters = (holder.__memgwRateCounters ??= new Map());
/** The number of counters at which ended windows are next swept: twice what the last sweep kept. */
let sweepCountersAt = SWEEP_EVERY_HITS;

function countInProcess(rule: RateLimitRule, key: string, windowStart: number): number {
  const id = `${rule.name}\0${key}`;
  const counter = processCounters.get(id);
  if (counter && counter.windowStart === windowStart) return ++counter.count;
  if (processCounters.size >= sweepCountersAt) {
    for (const [other, { windowStart: started }] of processCounters)
      if (started < windowStart) processCounters.delete(other);
    sweepCountersAt = Math.max(SWEEP_EVERY_HITS, processCounters.size * 2);
  }
  processCounters.set(id, { windowStart, count: 1 });
  return 1;
}

async function countInDatabase(rule: RateLimitRule, key: string, windowStart: number, now: number) {
  const keyHash = createHash("sha256").update(key).digest("hex");
  const prisma = await db();
  const [row] = await prisma.$queryRaw<{ count: number }[]>(
    Prisma.sql`INSERT INTO rate_limit_counters (rule, key_hash, window_start, count)
     VALUES (${rule.name}, ${keyHash}, ${new Date(windowStart).toISOString()}::timestamptz, 1)
     ON CONFLICT (rule, key_hash) DO UPDATE SET
       count = CASE WHEN rate_limit_counters.window_start = EXCLUDED.window_start
                    THEN rate_limit_counters.count + 1 ELSE 1 END,
       window_start = EXCLUDED.window_start
     RETURNING count`,
  );
  if (++hitsSinceSweep >= SWEEP_EVERY_HITS) {
    hitsSinceSweep = 0;
    const sweepBefore = new Date(now - Math.max(SWEEP_AFTER_MS, rule.windowMs * 2)).toISOString();
    await prisma.$executeRaw(
      Prisma.sql`DELETE FROM rate_limit_counters WHERE window_start < ${sweepBefore}::timestamptz`,
    );
  }
  return Number(row.count);
}

/** Hits every (rule, key) pair and returns the first refusal, or null when all allow it. */
export async function firstRefusal(
  checks: [RateLimitRule, string][],
  now = Date.now(),
): Promise<RateLimitVerdict | null> {
  let refused: RateLimitVerdict | null = null;
  // Every counter counts the attempt, refused or not, so that one limit running out does not pause the others.
  for (const [rule, key] of checks) {
    const verdict = await hitRateLimit(rule, key, now);
    if (!verdict.allowed && (!refused || verdict.resetSeconds > refused.resetSeconds)) refused = verdict;
  }
  return refused;
}
