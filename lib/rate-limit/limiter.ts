import { createHash } from "node:crypto";
import { db } from "@/lib/db";

/** A limit: at most `limit` hits per `windowMs` for one key (a client address, an email, an API key). */
export interface RateLimitRule {
  /** Names the counter family, e.g. `password-per-ip`; counters of different rules never mix. */
  name: string;
  limit: number;
  windowMs: number;
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
 * (an in-process counter would let N instances allow N times the limit). Keys are stored hashed: they
 * may be email addresses or client addresses of any length.
 */
export async function hitRateLimit(rule: RateLimitRule, key: string, now = Date.now()): Promise<RateLimitVerdict> {
  const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
  const keyHash = createHash("sha256").update(key).digest("hex");
  const prisma = await db();
  const [row] = await prisma.$queryRawUnsafe<{ count: number }[]>(
    `INSERT INTO rate_limit_counters (rule, key_hash, window_start, count) VALUES ($1, $2, $3::timestamptz, 1)
     ON CONFLICT (rule, key_hash) DO UPDATE SET
       count = CASE WHEN rate_limit_counters.window_start = EXCLUDED.window_start
                    THEN rate_limit_counters.count + 1 ELSE 1 END,
       window_start = EXCLUDED.window_start
     RETURNING count`,
    rule.name,
    keyHash,
    new Date(windowStart).toISOString(),
  );
  if (++hitsSinceSweep >= SWEEP_EVERY_HITS) {
    hitsSinceSweep = 0;
    await prisma.$executeRawUnsafe(
      `DELETE FROM rate_limit_counters WHERE window_start < $1::timestamptz`,
      new Date(now - Math.max(SWEEP_AFTER_MS, rule.windowMs * 2)).toISOString(),
    );
  }
  const count = Number(row.count);
  return {
    allowed: count <= rule.limit,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + rule.windowMs - now) / 1000)),
  };
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
