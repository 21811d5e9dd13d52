// The daily activity rollup (activity_daily_rollups): one row per organization, UTC day, namespace and
// operation, added to by a trigger on every insert into activity_logs (migration 20261123020000), so that the
// overview reads a few thousand rows instead of a million. Latencies are kept as a histogram: percentiles
// are read from it with the resolution of its buckets.

/**
 * Lower bounds (ms) of the latency buckets (the same array is in the migration's trigger): 1 ms wide up to
 * 10 ms, then each at most a third wider than the previous (12, 15, 20, 25, 30, 40, 50, 60, 80, 100, ...).
 * The last bucket is everything from 100 s up.
 */
export const LATENCY_BUCKETS_MS: readonly number[] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400, 500, 600,
  800, 1000, 1200, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 8000, 10000, 12000, 15000, 20000, 25000, 30000, 40000,
  50000, 60000, 80000, 100000,
];

/** 1-based, like PostgreSQL arrays and width_bucket(latency, LATENCY_BUCKETS_MS). */
export function latencyBucket(latencyMs: number): number {
  let bucket = 0;
  for (const bound of LATENCY_BUCKETS_MS) if (latencyMs >= bound) bucket++;
  return Math.max(bucket, 1);
}

/** A latency percentile read from a histogram: the bucket the value falls in. */
export interface LatencyPercentile {
  /** Lowest latency of the bucket (ms). */
  fromMs: number;
  /** Highest latency of the bucket (ms, whole milliseconds); null for the open last bucket. */
  toMs: number | null;
}

/** The nearest-rank percentile `p` (0 to 1) of a histogram of LATENCY_BUCKETS_MS buckets; null when empty. */
export function histogramPercentile(buckets: readonly number[], p: number): LatencyPercentile | null {
  const total = buckets.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i];
    if (seen >= rank) {
      const next = LATENCY_BUCKETS_MS[i + 1];
      return { fromMs: LATENCY_BUCKETS_MS[i], toMs: next === undefined ? null : next - 1 };
    }
  }
  return null;
}
