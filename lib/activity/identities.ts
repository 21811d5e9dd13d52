// The identities of an organization as the console shows them: the `identity_id` an app sends with
// remember and recall (a user of the app), seen through memories and activity, bounded by what the person
// may see (a member: the namespaces granted to them; owners and admins: the whole organization).
import { z } from "zod";
import type { MemberPrincipal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { identifier } from "@/lib/validation/strings";
import { ACTIVITY_OPERATIONS, activityWritten } from "./activity";
import { visibleActivitySql } from "./queries";

export const IDENTITIES_PAGE_SIZE = 50;
export const IDENTITY_ACTIVITY_PAGE_SIZE = 50;
/** "Operations in the last 7 days" of the identities list. */
export const RECENT_DAYS = 7;
// OFFSET pagination reads the rows it skips: far pages are refused rather than slow.
const MAX_PAGE = 2_000;

const PageNumber = z.coerce
  .number({ error: "must be a whole number >= 1" })
  .int("must be a whole number >= 1")
  .min(1, "must be a whole number >= 1")
  .max(MAX_PAGE, `must be at most ${MAX_PAGE}`)
  .default(1);

/** The identities list's query string: an id prefix and a page. */
export const IdentitiesQuery = z.object({
  q: identifier({ max: 255, lengthMessage: "must be at most 255 characters" }).optional(),
  page: PageNumber,
});
export type IdentitiesQuery = z.infer<typeof IdentitiesQuery>;

/** "success" (below 400), "error" (400 and above) or one exact HTTP status. */
export const StatusFilter = z.union([z.enum(["success", "error"]), z.string().regex(/^[1-5]\d\d$/)], {
  error: "must be success, error or an HTTP status such as 404",
});

/** The identity page's activity filters. */
export const IdentityActivityQuery = z.object({
  operation: z.enum(ACTIVITY_OPERATIONS, { error: `must be one of ${ACTIVITY_OPERATIONS.join(", ")}` }).optional(),
  status: StatusFilter.optional(),
  page: PageNumber,
});
export type IdentityActivityQuery = z.infer<typeof IdentityActivityQuery>;

export interface IdentityListItem {
  identityId: string;
  /** Memories carrying the identity in the namespaces the person may see. */
  memories: number;
  operationsLast7Days: number;
  lastActivityAt: Date | null;
}

/**
 * The SQL condition (on identity_summaries aliased `s`, joined to its namespace `n`) of the rows a person
 * may see.
 */
function visibleSummarySql(principal: MemberPrincipal): Prisma.Sql {
  const conditions = [Prisma.sql`s.org_id = ${principal.orgId}`, Prisma.sql`n.org_id = s.org_id`];
  if (principal.role === "member") {
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM namespace_grants g
               WHERE g.namespace_id = s.namespace_id AND g.org_id = s.org_id AND g.user_id = ${principal.userId})`,
    );
  }
  return Prisma.join(conditions, " AND ");
}

/**
 * One page of the identities a person may see, in id order (byte order, so a prefix search is one range
 * of the index), and whether another page follows. Reads the per-namespace summaries along the
 * (org_id, identity_id) index and stops after the page: no grouping of the whole organization, however
 * many identities it has. Then counts the last 7 days' operations of the page's identities only.
 */
export async function listIdentities(
  principal: MemberPrincipal,
  query: IdentitiesQuery,
): Promise<{ items: IdentityListItem[]; hasNext: boolean; page: number; pageSize: number }> {
  await activityWritten();
  const prisma = await db();
  const prefix = query.q
    ? Prisma.sql`AND s.identity_id COLLATE "C" >= ${query.q} AND starts_with(s.identity_id, ${query.q})`
    : Prisma.empty;
  const rows = await prisma.$queryRaw<{ identity_id: string; memories: number; last_activity_at: Date | null }[]>(
    Prisma.sql`SELECT s.identity_id COLLATE "C" AS identity_id, sum(s.memory_count)::int AS memories,
            max(s.last_activity_at) AS last_activity_at
     FROM identity_summaries s JOIN namespaces n ON n.id = s.namespace_id
     WHERE ${visibleSummarySql(principal)} ${prefix}
     GROUP BY 1
     ORDER BY 1
     LIMIT ${IDENTITIES_PAGE_SIZE + 1} OFFSET ${(query.page - 1) * IDENTITIES_PAGE_SIZE}`,
  );
  const page = rows.slice(0, IDENTITIES_PAGE_SIZE);
  const recent = await recentOperations(
    principal,
    page.map((row) => row.identity_id),
  );
  return {
    items: page.map((row) => ({
      identityId: row.identity_id,
      memories: row.memories,
      operationsLast7Days: recent.get(row.identity_id) ?? 0,
      lastActivityAt: row.last_activity_at,
    })),
    hasNext: rows.length > IDENTITIES_PAGE_SIZE,
    page: query.page,
    pageSize: IDENTITIES_PAGE_SIZE,
  };
}

/** Operations of the last RECENT_DAYS days per identity, of the activity the person may see. */
async function recentOperations(principal: MemberPrincipal, identityIds: string[]): Promise<Map<string, number>> {
  if (identityIds.length === 0) return new Map();
  const prisma = await db();
  const since = new Date(Date.now() - RECENT_DAYS * 86_400_000);
  const rows = await prisma.$queryRaw<{ identity_id: string; n: number }[]>(
    Prisma.sql`SELECT a.identity_id, count(*)::int AS n FROM activity_logs a
     WHERE ${visibleActivitySql(principal)} AND a.identity_id = ANY(${identityIds}::text[]) AND a.created_at >= ${since}
     GROUP BY a.identity_id`,
  );
  return new Map(rows.map((row) => [row.identity_id, row.n]));
}

/** What the identity page says about the identity: its memories and last activity where the person may see. */
export async function identitySummary(
  principal: MemberPrincipal,
  identityId: string,
): Promise<{ memories: number; namespaces: number; lastActivityAt: Date | null }> {
  await activityWritten();
  const prisma = await db();
  const [row] = await prisma.$queryRaw<{ memories: number; namespaces: number; last: Date | null }[]>(
    Prisma.sql`SELECT COALESCE(sum(s.memory_count), 0)::int AS memories,
            count(*) FILTER (WHERE s.memory_count > 0)::int AS namespaces, max(s.last_activity_at) AS last
     FROM identity_summaries s JOIN namespaces n ON n.id = s.namespace_id
     WHERE ${visibleSummarySql(principal)} AND s.identity_id = ${identityId}`,
  );
  return { memories: row.memories, namespaces: row.namespaces, lastActivityAt: row.last };
}

export interface IdentityActivityItem {
  id: string;
  operation: string;
  namespaceId: string | null;
  /** Null when the namespace is gone or was never resolved (a refusal). */
  namespaceName: string | null;
  keyName: string | null;
  status: number;
  latencyMs: number;
  createdAt: Date;
}

/**
 * One page of an identity's activity the person may see, newest first, filtered by operation and status;
 * `hasNext` when another page follows.
 */
export async function identityActivity(
  principal: MemberPrincipal,
  identityId: string,
  query: IdentityActivityQuery,
): Promise<{ items: IdentityActivityItem[]; hasNext: boolean; page: number }> {
  await activityWritten();
  const prisma = await db();
  const conditions = [visibleActivitySql(principal, { identityId })];
  if (query.operation) conditions.push(Prisma.sql`a.operation = ${query.operation}`);
  if (query.status === "success") conditions.push(Prisma.sql`a.status < 400`);
  else if (query.status === "error") conditions.push(Prisma.sql`a.status >= 400`);
  else if (query.status) conditions.push(Prisma.sql`a.status = ${Number(query.status)}`);
  const rows = await prisma.$queryRaw<
    {
      id: string;
      operation: string;
      namespace_id: string | null;
      namespace_name: string | null;
      key_name: string | null;
      status: number;
      latency_ms: number;
      created_at: Date;
    }[]
  >(
    Prisma.sql`SELECT a.id, a.operation, a.namespace_id, n.name AS namespace_name, k.name AS key_name, a.status,
            a.latency_ms, a.created_at
     FROM activity_logs a
     LEFT JOIN namespaces n ON n.id = a.namespace_id AND n.org_id = a.org_id
     LEFT JOIN api_keys k ON k.id = a.api_key_id AND k.org_id = a.org_id
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY a.created_at DESC, a.id DESC
     LIMIT ${IDENTITY_ACTIVITY_PAGE_SIZE + 1} OFFSET ${(query.page - 1) * IDENTITY_ACTIVITY_PAGE_SIZE}`,
  );
  return {
    items: rows.slice(0, IDENTITY_ACTIVITY_PAGE_SIZE).map((row) => ({
      id: row.id,
      operation: row.operation,
      namespaceId: row.namespace_id,
      namespaceName: row.namespace_name,
      keyName: row.key_name,
      status: row.status,
      latencyMs: row.latency_ms,
      createdAt: row.created_at,
    })),
    hasNext: rows.length > IDENTITY_ACTIVITY_PAGE_SIZE,
    page: query.page,
  };
}
