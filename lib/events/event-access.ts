import { namespaceAccess, type Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Which events a principal may read, as SQL on `events e`: an owner's or admin's every event of the organization
 * (its own events too: keys, connections, deleted namespaces); anyone else's only those of the namespaces they
 * may use now, within their scopes (a key with scopes sees a memory's events only when it could read the memory).
 */
export async function visibleEvents(
  principal: Principal,
): Promise<{ where: Prisma.Sql; namespaceIds: string[] | "all" }> {
  const org = Prisma.sql`e.org_id = ${principal.orgId}`;
  if (principal.kind === "member" && principal.role !== "member") return { where: org, namespaceIds: "all" };
  const prisma = await db();
  const namespaces = await prisma.namespace.findMany({ where: namespaceAccess(principal), select: { id: true } });
  const ids = namespaces.map((namespace) => namespace.id);
  const scoped = Object.keys(principal.scopes).length > 0;
  const where = Prisma.sql`${org} AND e.namespace_id = ANY(${ids}::text[])
    ${scoped ? Prisma.sql`AND e.scopes @> ${JSON.stringify(principal.scopes)}::jsonb` : Prisma.empty}`;
  return { where, namespaceIds: ids };
}

/**
 * A memory's content beside its event, when asked for: the memory as it is now (gone once deleted), and only
 * when the principal's scopes can read it now.
 */
export function contentJoin(principal: Principal, includeContent: boolean): Prisma.Sql {
  if (!includeContent) return Prisma.sql`LEFT JOIN memories m ON false`;
  const scoped = Object.keys(principal.scopes).length > 0;
  return Prisma.sql`LEFT JOIN memories m ON m.id = e.memory_id AND m.org_id = e.org_id
    AND (m.expires_at IS NULL OR m.expires_at > now())
    ${scoped ? Prisma.sql`AND m.scopes @> ${JSON.stringify(principal.scopes)}::jsonb` : Prisma.empty}`;
}

/**
 * Events are read in the order of (writing transaction, sequence), and only those whose every earlier
 * transaction has ended: an event of a transaction still open then cannot commit later behind a cursor that
 * passed it (sequence numbers are taken before commit, so they alone do not say what committed first).
 */
/** The oldest transaction still open on the server (its id): events of earlier transactions are SETTLED. */
export const SETTLED_BEFORE_TXID = Prisma.sql`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;
export const SETTLED = Prisma.sql`e.txid < ${SETTLED_BEFORE_TXID}`;
