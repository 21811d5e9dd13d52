// Reading the activity log back for the console: what a person sees follows who they are (a member sees
// the activity of the namespaces granted to them; owners and admins everything of the organization).
import type { MemberPrincipal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { activityWritten } from "./activity";

export const ACTIVITY_CHART_DAYS = 30;

/** What to count: the whole organization, or one namespace or one identity of it. */
export interface ActivityFilter {
  namespaceId?: string;
  identityId?: string;
}

/**
 * The SQL condition (on activity rows aliased `a`) of the rows a person may see, with `filter`. A member
 * sees rows of the namespaces granted to them (never rows without a namespace: refusals before one was
 * resolved); owners and admins every row of the organization.
 */
export function visibleActivitySql(principal: MemberPrincipal, filter: ActivityFilter = {}): Prisma.Sql {
  const conditions = [Prisma.sql`a.org_id = ${principal.orgId}`];
  if (principal.role === "member") {
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM namespace_grants g
               WHERE g.namespace_id = a.namespace_id AND g.org_id = a.org_id AND g.user_id = ${principal.userId})`,
    );
  }
  if (filter.namespaceId !== undefined) conditions.push(Prisma.sql`a.namespace_id = ${filter.namespaceId}`);
  if (filter.identityId !== undefined) conditions.push(Prisma.sql`a.identity_id = ${filter.identityId}`);
  return Prisma.join(conditions, " AND ");
}

/** The first instant of the UTC day `days - 1` days before today: the start of a `days`-day chart. */
export function chartStart(days: number, now = new Date()): Date {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  start.setUTCDate(start.getUTCDate() - (days - 1));
  return start;
}

/**
 * Operations per UTC day and operation over the last `days` days (today included), every day present
 * (empty days with no counts), oldest first: the data of OperationsChart.
 */
export async function dailyOperations(
  principal: MemberPrincipal,
  filter: ActivityFilter = {},
  days = ACTIVITY_CHART_DAYS,
): Promise<{ day: string; counts: Record<string, number> }[]> {
  await activityWritten();
  const prisma = await db();
  const start = chartStart(days);
  const where = visibleActivitySql(principal, filter);
  // Without an identity, the daily rollup (organization, day, namespace, operation) has the counts: a few
  // thousand rows to add up instead of every activity row of 30 days. It has no identity column.
  const sql =
    filter.identityId === undefined
      ? Prisma.sql`SELECT to_char(a.day, 'YYYY-MM-DD') AS day, a.operation, sum(a.count)::int AS n
         FROM activity_daily_rollups a
         WHERE ${where} AND a.day >= (${start}::timestamptz AT TIME ZONE 'UTC')::date
         GROUP BY 1, 2`
      : Prisma.sql`SELECT to_char(date_trunc('day', a.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, a.operation,
                count(*)::int AS n
         FROM activity_logs a
         WHERE ${where} AND a.created_at >= ${start}
         GROUP BY 1, 2`;
  const rows = await prisma.$queryRaw<{ day: string; operation: string; n: number }[]>(sql);
  const byDay = new Map<string, Record<string, number>>();
  for (let i = 0; i < days; i++) {
    const day = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    byDay.set(day, {});
  }
  for (const row of rows) {
    const counts = byDay.get(row.day);
    if (counts) counts[row.operation] = row.n;
  }
  return [...byDay].map(([day, counts]) => ({ day, counts }));
}
