-- The daily activity rollup (lib/activity/rollup.ts): per organization, UTC day, namespace and operation, the
-- number of operations, of refusals (4xx) and failures (5xx), of those that came over MCP, and a histogram of
-- their latencies. Kept by a trigger on activity_logs, so every writer (the gateway, bulk loads) keeps it exact.
CREATE TABLE "activity_daily_rollups" (
    "org_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "namespace_id" TEXT NOT NULL DEFAULT '',
    "operation" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "client_errors" INTEGER NOT NULL DEFAULT 0,
    "server_errors" INTEGER NOT NULL DEFAULT 0,
    "mcp_count" INTEGER NOT NULL DEFAULT 0,
    "latency_buckets" INTEGER[],

    CONSTRAINT "activity_daily_rollups_pkey" PRIMARY KEY ("org_id", "day", "namespace_id", "operation")
);

-- Not declared in prisma/schema.prisma (it would add a relation field to Organization): the rollup goes with
-- its organization. Pruning activity rows (ACTIVITY_RETENTION_DAYS) leaves it: counts only, no identities.
ALTER TABLE "activity_daily_rollups" ADD CONSTRAINT "activity_daily_rollups_org_id_fkey"
    FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The rows of one statement, aggregated: one upsert per statement (a bulk insert of a million rows costs one
-- aggregate, not a million upserts). The bucket bounds are LATENCY_BUCKETS_MS of lib/activity/rollup.ts.
CREATE FUNCTION activity_daily_rollup_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH per_bucket AS (
    SELECT org_id, (created_at AT TIME ZONE 'UTC')::date AS day, coalesce(namespace_id, '') AS namespace_id,
           operation, width_bucket(latency_ms, ARRAY[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 8000, 10000, 12000, 15000, 20000, 25000, 30000, 40000, 50000, 60000, 80000, 100000]) AS bucket,
           count(*) AS n,
           count(*) FILTER (WHERE status >= 400 AND status < 500) AS client_errors,
           count(*) FILTER (WHERE status >= 500) AS server_errors,
           count(*) FILTER (WHERE details->>'transport' = 'mcp') AS mcp_count
    FROM new_rows
    GROUP BY 1, 2, 3, 4, 5
  ), per_day AS (
    SELECT org_id, day, namespace_id, operation, sum(n) AS n, sum(client_errors) AS client_errors,
           sum(server_errors) AS server_errors, sum(mcp_count) AS mcp_count, jsonb_object_agg(bucket::text, n) AS hist
    FROM per_bucket
    GROUP BY 1, 2, 3, 4
  )
  INSERT INTO activity_daily_rollups AS r
    (org_id, day, namespace_id, operation, count, client_errors, server_errors, mcp_count, latency_buckets)
  SELECT org_id, day, namespace_id, operation, n, client_errors, server_errors, mcp_count,
         ARRAY(SELECT coalesce((hist->>g::text)::int, 0) FROM generate_series(1, 51) g ORDER BY g)
  FROM per_day
  ON CONFLICT (org_id, day, namespace_id, operation) DO UPDATE SET
    count = r.count + EXCLUDED.count,
    client_errors = r.client_errors + EXCLUDED.client_errors,
    server_errors = r.server_errors + EXCLUDED.server_errors,
    mcp_count = r.mcp_count + EXCLUDED.mcp_count,
    latency_buckets = ARRAY(SELECT r.latency_buckets[g] + EXCLUDED.latency_buckets[g]
                            FROM generate_series(1, 51) g ORDER BY g);
  RETURN NULL;
END
$$;

CREATE TRIGGER "activity_logs_daily_rollup" AFTER INSERT ON "activity_logs"
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_daily_rollup_add();

-- Backfill: the activity rows kept so far, by the trigger's query (every key is new: no conflicts).
WITH per_bucket AS (
  SELECT org_id, (created_at AT TIME ZONE 'UTC')::date AS day, coalesce(namespace_id, '') AS namespace_id,
         operation, width_bucket(latency_ms, ARRAY[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 8000, 10000, 12000, 15000, 20000, 25000, 30000, 40000, 50000, 60000, 80000, 100000]) AS bucket,
         count(*) AS n,
         count(*) FILTER (WHERE status >= 400 AND status < 500) AS client_errors,
         count(*) FILTER (WHERE status >= 500) AS server_errors,
         count(*) FILTER (WHERE details->>'transport' = 'mcp') AS mcp_count
  FROM activity_logs
  GROUP BY 1, 2, 3, 4, 5
), per_day AS (
  SELECT org_id, day, namespace_id, operation, sum(n) AS n, sum(client_errors) AS client_errors,
         sum(server_errors) AS server_errors, sum(mcp_count) AS mcp_count, jsonb_object_agg(bucket::text, n) AS hist
  FROM per_bucket
  GROUP BY 1, 2, 3, 4
)
INSERT INTO activity_daily_rollups
  (org_id, day, namespace_id, operation, count, client_errors, server_errors, mcp_count, latency_buckets)
SELECT org_id, day, namespace_id, operation, n, client_errors, server_errors, mcp_count,
       ARRAY(SELECT coalesce((hist->>g::text)::int, 0) FROM generate_series(1, 51) g ORDER BY g)
FROM per_day;
