// What an identity's memories are about: GET /api/v1/identities/{id}/entities and the console's identity page.
// A profile of the people, places and things a user talks about, counted from the memories, with no model.
import { z } from "zod";
import type { ActivityNote } from "@/lib/activity/activity";
import { namespaceAccess, type Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { invalidRequest } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { named } from "@/lib/validation/named";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { IdentityId } from "../common/schemas";
import { TargetId } from "@/lib/validation/target";
import { notExpiredSql } from "../common/sql";
import { ENTITY_COLUMNS, entityJson, EntitySchema, type EntityRow } from "./entity-json";

const LIMIT_MESSAGE = "must be a whole number from 1 to 100";

export const IdentityIdParams = z.strictObject({ id: IdentityId });

export const IdentityEntitiesQuery = z.strictObject({
  namespace_id: TargetId.optional().describe(
    "only this namespace's memories; every namespace the key may use without it",
  ),
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(100, LIMIT_MESSAGE)
    .default(20)
    .describe("how many entities, the most mentioned first"),
});
export type IdentityEntitiesQuery = z.infer<typeof IdentityEntitiesQuery>;

export const IdentityEntitiesSchema = z.object({
  identity_id: z.string(),
  memory_count: z.number().int().describe("the identity's memories the caller may see"),
  entities: z
    .array(EntitySchema)
    .describe(
      "the entities those memories mention, by how many of them mention each (memory_count), then mentions; " +
        "counts and first/last mention are over the identity's memories only",
    ),
});
export type IdentityEntitiesJson = z.infer<typeof IdentityEntitiesSchema>;

export interface IdentityEntitiesInput {
  identityId: string;
  namespaceId?: string;
  /** 1 to 100 (default 20). */
  limit?: number;
}

/**
 * The entities the memories of `identityId` mention, in one namespace or every one the principal may use,
 * ranked by how many of those memories mention each. Only memories the principal may see count (its
 * scopes, not expired), so a key with scopes learns nothing of an identity's other memories. An identity
 * with no visible memory has no entity: an empty profile, not a 404 (identities are not stored as such).
 */
export async function identityEntities(
  principal: Principal,
  input: IdentityEntitiesInput,
  activity: ActivityNote = {},
): Promise<IdentityEntitiesJson> {
  const params = IdentityIdParams.safeParse({ id: input.identityId });
  if (!params.success) throw invalidRequest(params.error.issues, "path");
  const parsed = IdentityEntitiesQuery.safeParse({ namespace_id: input.namespaceId, limit: input.limit });
  if (!parsed.success) throw invalidRequest(parsed.error.issues, "query");
  const query = parsed.data;
  activity.identityId = input.identityId;
  const prisma = await db();
  let namespaceIds: string[];
  if (query.namespace_id !== undefined) {
    const namespace = await resolveTarget(principal, { namespace_id: query.namespace_id });
    activity.namespaceId = namespace.id;
    namespaceIds = [namespace.id];
  } else {
    const visible = await prisma.namespace.findMany({ where: namespaceAccess(principal), select: { id: true } });
    namespaceIds = visible.map((namespace) => namespace.id);
  }
  const clauses = [
    Prisma.sql`m.org_id = ${principal.orgId}`,
    Prisma.sql`m.namespace_id = ANY(${namespaceIds}::text[])`,
    Prisma.sql`m.identity_id = ${input.identityId}`,
    Prisma.raw(notExpiredSql("m")),
  ];
  if (Object.keys(principal.scopes).length > 0)
    clauses.push(Prisma.sql`m.scopes @> ${JSON.stringify(principal.scopes)}::jsonb`);
  const memories = Prisma.join(clauses, " AND ");
  const [rows, [{ total }]] = await Promise.all([
    prisma.$queryRaw<EntityRow[]>(
      Prisma.sql`WITH v AS (
          SELECT l.entity_id, count(*)::int AS memory_count, sum(l.mentions)::int AS mention_count,
                 min(m.occurred_at) AS first_at, max(m.occurred_at) AS last_at
          FROM memories m JOIN memory_entities l ON l.memory_id = m.id AND l.org_id = m.org_id
          WHERE ${memories}
          GROUP BY l.entity_id
        )
        SELECT ${ENTITY_COLUMNS} FROM v JOIN entities e ON e.id = v.entity_id AND e.org_id = ${principal.orgId}
        ORDER BY v.memory_count DESC, v.mention_count DESC, e.name, e.id
        LIMIT ${query.limit}`,
    ),
    prisma.$queryRaw<{ total: number }[]>(Prisma.sql`SELECT count(*)::int AS total FROM memories m WHERE ${memories}`),
  ]);
  return { identity_id: input.identityId, memory_count: total, entities: rows.map(entityJson) };
}

named(IdentityEntitiesSchema, "IdentityEntities");
