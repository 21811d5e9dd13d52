// The organization's overview in the console: operation counts, latency percentiles and error rates, the
// most active namespaces and identities, and the getting-started checklist. The figures over days come from
// the daily rollup (lib/activity/rollup.ts); what a person sees is bounded like the activity log itself.
import { namespaceAccess, type MemberPrincipal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ACTIVITY_CHART_DAYS, chartStart, visibleActivitySql } from "./queries";
import { histogramPercentile, LATENCY_BUCKETS_MS, type LatencyPercentile } from "./rollup";
import { activityWritten } from "./activity";

export interface OperationStats {
  operation: string;
  count: number;
  /** Refused as the caller's mistake or lack of access (4xx). */
  clientErrors: number;
  /** Failed on the gateway's side (5xx). */
  serverErrors: number;
  /** Share of refusals and failures, 0 to 1. */
  errorRate: number;
  p50: LatencyPercentile | null;
  p95: LatencyPercentile | null;
}

export interface OperationsSummary {
  operations: OperationStats[];
  total: Omit<OperationStats, "operation">;
}

function stats(count: number, clientErrors: number, serverErrors: number, buckets: number[]) {
  return {
    count,
    clientErrors,
    serverErrors,
    errorRate: count === 0 ? 0 : (clientErrors + serverErrors) / count,
    p50: histogramPercentile(buckets, 0.5),
    p95: histogramPercentile(buckets, 0.95),
  };
}

/** Per operation over the last `days` days (today included): counts, error rate and p50/p95 latency. */
export async function operationsSummary(
  principal: MemberPrincipal,
  days = ACTIVITY_CHART_DAYS,
): Promise<OperationsSummary> {
  await activityWritten();
  const prisma = await db();
  const where = visibleActivitySql(principal);
  // One JSON text instead of a row per rollup row: the embedded database's driver spends far longer per
  // row returned than the query takes (measured: 26 ms for 260 rows, 15 ms as one JSON value).
  const [{ rows }] = await prisma.$queryRaw<{ rows: string }[]>(
    Prisma.sql`SELECT coalesce(json_agg(json_build_array(a.operation, a.count, a.client_errors, a.server_errors,
                                               a.latency_buckets)), '[]')::text AS rows
     FROM activity_daily_rollups a
     WHERE ${where} AND a.day >= (${chartStart(days)}::timestamptz AT TIME ZONE 'UTC')::date`,
  );
  type Sum = { count: number; clientErrors: number; serverErrors: number; buckets: number[] };
  const empty = (): Sum => ({ count: 0, clientErrors: 0, serverErrors: 0, buckets: LATENCY_BUCKETS_MS.map(() => 0) });
  const total = empty();
  const byOperation = new Map<string, Sum>();
  for (const [operation, count, clientErrors, serverErrors, buckets] of JSON.parse(rows) as [
    string,
    number,
    number,
    number,
    number[],
  ][]) {
    const sum = byOperation.get(operation) ?? empty();
    byOperation.set(operation, sum);
    for (const target of [sum, total]) {
      target.count += count;
      target.clientErrors += clientErrors;
      target.serverErrors += serverErrors;
      buckets.forEach((n, i) => (target.buckets[i] += n));
    }
  }
  return {
    operations: [...byOperation]
      .map(([operation, s]) => ({ operation, ...stats(s.count, s.clientErrors, s.serverErrors, s.buckets) }))
      .sort((a, b) => b.count - a.count || a.operation.localeCompare(b.operation)),
    total: stats(total.count, total.clientErrors, total.serverErrors, total.buckets),
  };
}

export interface TopNamespace {
  id: string;
  name: string;
  operations: number;
}

/** The namespaces with the most operations over the last `days` days (deleted namespaces left out). */
export async function topNamespaces(
  principal: MemberPrincipal,
  limit = 5,
  days = ACTIVITY_CHART_DAYS,
): Promise<TopNamespace[]> {
  await activityWritten();
  const prisma = await db();
  return prisma.$queryRaw<TopNamespace[]>(
    Prisma.sql`SELECT n.id, n.name, sum(a.count)::int AS operations
     FROM activity_daily_rollups a
     JOIN namespaces n ON n.id = a.namespace_id AND n.org_id = a.org_id
     WHERE ${visibleActivitySql(principal)} AND a.day >= (${chartStart(days)}::timestamptz AT TIME ZONE 'UTC')::date
     GROUP BY n.id, n.name
     ORDER BY operations DESC, n.name
     LIMIT ${limit}`,
  );
}

/**
 * How many of the latest operations the most active identities are counted over: counting every activity
 * row of 30 days by identity does not fit a page render with a million rows (the rollup has no identities).
 */
export const TOP_IDENTITIES_SAMPLE = 5_000;

export interface TopIdentities {
  identities: { identityId: string; operations: number }[];
  /** The oldest operation counted (null when there was none). */
  since: Date | null;
  /** How many operations were counted (at most TOP_IDENTITIES_SAMPLE). */
  sampled: number;
}

/** The identities with the most operations among the latest TOP_IDENTITIES_SAMPLE of the last `days` days. */
export async function topIdentities(
  principal: MemberPrincipal,
  limit = 5,
  days = ACTIVITY_CHART_DAYS,
): Promise<TopIdentities> {
  await activityWritten();
  const prisma = await db();
  const [{ result }] = await prisma.$queryRaw<{ result: string }[]>(
    Prisma.sql`WITH recent AS MATERIALIZED (
       SELECT a.identity_id, a.created_at FROM activity_logs a
       WHERE ${visibleActivitySql(principal)} AND a.created_at >= ${chartStart(days)}
       ORDER BY a.created_at DESC
       LIMIT ${TOP_IDENTITIES_SAMPLE}
     )
     SELECT json_build_object(
       'since', min(created_at),
       'sampled', count(*),
       'identities', (SELECT coalesce(json_agg(json_build_object('identityId', identity_id, 'operations', n)
                                               ORDER BY n DESC, identity_id), '[]')
                      FROM (SELECT identity_id, count(*)::int AS n FROM recent WHERE identity_id IS NOT NULL
                            GROUP BY identity_id ORDER BY n DESC, identity_id LIMIT ${limit}) t)
     )::text AS result
     FROM recent`,
  );
  const parsed = JSON.parse(result) as {
    since: string | null;
    sampled: number;
    identities: TopIdentities["identities"];
  };
  return { ...parsed, since: parsed.since === null ? null : new Date(parsed.since) };
}

export interface GettingStarted {
  /**
   * The person made an API key (revoked ones count: one was made). Only its creator ever saw a key's
   * secret, so another member's key does not tick it; for owners and admins an operator key (no creator:
   * made with the CLI or MEMGW_INIT_API_KEY by whoever runs the installation) does. A connected MCP client's
   * key is not an API key.
   */
  keyCreated: boolean;
  /** A namespace the person may see exists. */
  namespaceCreated: boolean;
  /** A memory was remembered into a namespace the person may see (one exists, or a remember succeeded). */
  remembered: boolean;
  /** An MCP client ran a tool on a namespace the person may see. */
  mcpConnected: boolean;
  /** Where the later steps are done: the oldest namespace the person may see. */
  firstNamespaceId: string | null;
}

/** The getting-started checklist, each step from what exists in the database. */
export async function gettingStarted(principal: MemberPrincipal): Promise<GettingStarted> {
  await activityWritten();
  const prisma = await db();
  const [key, namespace, memory, usage] = await Promise.all([
    prisma.apiKey.findFirst({
      where: {
        orgId: principal.orgId,
        oauthClientId: null,
        OR: [{ createdById: principal.userId }, ...(principal.role === "member" ? [] : [{ createdById: null }])],
      },
      select: { id: true },
    }),
    prisma.namespace.findFirst({
      where: namespaceAccess(principal),
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true },
    }),
    prisma.memory.findFirst({
      where: {
        orgId: principal.orgId,
        namespace: namespaceAccess(principal),
        OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }],
      },
      select: { id: true },
    }),
    prisma.$queryRaw<{ remembered: boolean | null; mcp: boolean | null }[]>(
      Prisma.sql`SELECT bool_or(a.operation = 'remember' AND a.count > a.client_errors + a.server_errors) AS remembered,
              bool_or(a.mcp_count > 0) AS mcp
       FROM activity_daily_rollups a WHERE ${visibleActivitySql(principal)}`,
    ),
  ]);
  return {
    keyCreated: key !== null,
    namespaceCreated: namespace !== null,
    remembered: memory !== null || usage[0]?.remembered === true,
    mcpConnected: usage[0]?.mcp === true,
    firstNamespaceId: namespace?.id ?? null,
  };
}
