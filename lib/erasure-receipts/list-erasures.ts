// Reading receipts back: GET /erasures.
import type { z } from "zod";
import { namespaceAccess, type Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { PaginationQuery } from "@/lib/http/pagination";
import { identifier } from "@/lib/validation/strings";
import { actorOfPrincipal, type ActorKind, type Erasure, type ErasureKind, type ErasureSelector } from "./erasure";
import type { erasedNamespaceJson } from "./erasure-json";

export const ListErasuresQuery = PaginationQuery.extend({
  identity_id: identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" })
    .optional()
    .describe("only receipts of requests that named this identity"),
  namespace_id: identifier({ min: 1 }).optional().describe("only receipts of deletions in this namespace"),
});
export type ListErasuresQuery = z.infer<typeof ListErasuresQuery>;

interface ErasureRow {
  id: string;
  kind: ErasureKind;
  namespace_id: string | null;
  /** Receipts from before facts existed have no facts_deleted. */
  namespaces: (Omit<ReturnType<typeof erasedNamespaceJson>, "facts_deleted"> & { facts_deleted?: number })[];
  selector: ErasureSelector;
  memories_deleted: number;
  chunks_deleted: number;
  actor_kind: ActorKind;
  actor_id: string | null;
  actor_name: string | null;
  created_at: Date;
}
/**
 * Whom a principal's receipts are limited to, as SQL over `erasures e`:
 * - owners and admins (the console) see every receipt of the organization;
 * - anyone else sees the receipts they made themselves, and those whose every namespace is one they may use
 *   now. A receipt naming a namespace they may not use (or one deleted since) would tell them its name and
 *   whose memories were in it, so it is not theirs to see.
 */
async function visibility(principal: Principal): Promise<Prisma.Sql> {
  const sameOrganization = Prisma.sql`e.org_id = ${principal.orgId}`;
  if (principal.kind === "member" && principal.role !== "member") return sameOrganization;
  const prisma = await db();
  const usable = await prisma.namespace.findMany({ where: namespaceAccess(principal), select: { id: true } });
  const actor = actorOfPrincipal(principal);
  return Prisma.sql`${sameOrganization} AND ((e.actor_kind = ${actor.kind} AND e.actor_id = ${actor.id})
      OR (jsonb_array_length(e.namespaces) > 0 AND NOT EXISTS (
            SELECT 1 FROM jsonb_array_elements(e.namespaces) n
            WHERE NOT ((n ->> 'namespace_id') = ANY(${usable.map((ns) => ns.id)}::text[])))))`;
}

/** One page of the receipts a principal may see (see visibility), newest first, with the query's filters. */
export async function listErasures(principal: Principal, query: ListErasuresQuery) {
  const conditions = [await visibility(principal)];
  if (query.identity_id !== undefined) conditions.push(Prisma.sql`e.selector ->> 'identity_id' = ${query.identity_id}`);
  if (query.namespace_id !== undefined) {
    // Every receipt lists the namespaces it deleted from (a forget in one namespace lists it even at 0).
    conditions.push(Prisma.sql`e.namespaces @> ${JSON.stringify([{ namespace_id: query.namespace_id }])}::jsonb`);
  }
  const where = Prisma.join(conditions, " AND ");
  const prisma = await db();
  const [{ total }] = await prisma.$queryRaw<{ total: number }[]>(
    Prisma.sql`SELECT count(*)::int AS total FROM erasures e WHERE ${where}`,
  );
  const rows = await prisma.$queryRaw<ErasureRow[]>(
    Prisma.sql`SELECT e.id, e.kind, e.namespace_id, e.namespaces, e.selector, e.memories_deleted, e.chunks_deleted,
                      e.actor_kind, e.actor_id, e.actor_name, e.created_at
               FROM erasures e WHERE ${where}
               ORDER BY e.created_at DESC, e.id DESC
               LIMIT ${query.page_size} OFFSET ${(query.page - 1) * query.page_size}`,
  );
  const items: Erasure[] = rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    namespaceId: row.namespace_id,
    namespaces: row.namespaces.map((ns) => ({
      namespaceId: ns.namespace_id,
      name: ns.name,
      memoriesDeleted: ns.memories_deleted,
      chunksDeleted: ns.chunks_deleted,
      factsDeleted: ns.facts_deleted ?? 0,
    })),
    selector: row.selector,
    memoriesDeleted: row.memories_deleted,
    chunksDeleted: row.chunks_deleted,
    factsDeleted: row.namespaces.reduce((sum, ns) => sum + (ns.facts_deleted ?? 0), 0),
    actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_name },
    createdAt: row.created_at,
  }));
  return { items, total };
}
