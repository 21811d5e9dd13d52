// One entity with the entities it is mentioned with: GET /api/v1/entities/{id} and the console's entity page.
import { z } from "zod";
import type { ActivityNote } from "@/lib/activity/activity";
import { namespaceAccess, type Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { invalidRequest, notFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { named } from "@/lib/validation/named";
import { memoryFilter } from "../common/sql";
import { ENTITY_COLUMNS, EntityId, entityJson, EntitySchema, visibleLinks, type EntityRow } from "./entity-json";
import type { EntityKind } from "../common/entity-kinds";
import { EntityRefSchema, type EntityRefJson } from "../common/entity-ref";

/** How many co-occurring entities an entity shows: the most shared first. */
export const CO_OCCURRING_SHOWN = 20;

export const EntityIdParams = z.strictObject({ id: EntityId });

export const EntityDetailSchema = EntitySchema.extend({
  co_occurring: z
    .array(
      z.object({
        entity: EntityRefSchema,
        shared_memories: z.number().int().describe("memories the caller may see that mention both"),
      }),
    )
    .describe(`the entities mentioned in the same memories, most shared first (at most ${CO_OCCURRING_SHOWN})`),
});
export type EntityDetailJson = z.infer<typeof EntityDetailSchema>;
export type CoOccurringJson = EntityDetailJson["co_occurring"][number];

/**
 * An entity of a namespace the principal may use, with its counts and first/last mention over the memories
 * the principal may see, and the entities those memories also mention. Not found, alike, when it does not
 * exist, belongs to another organization or a namespace the principal may not use, or when no memory the
 * principal may see mentions it (a key with scopes never learns an entity only out-of-scope memories name).
 */
export async function getEntity(
  principal: Principal,
  entityId: string,
  activity: ActivityNote = {},
): Promise<EntityDetailJson> {
  const params = EntityIdParams.safeParse({ id: entityId });
  if (!params.success) throw invalidRequest(params.error.issues, "path");
  const prisma = await db();
  const entity = await prisma.entity.findFirst({
    where: { id: entityId, orgId: principal.orgId, namespace: namespaceAccess(principal) },
    select: { id: true, namespaceId: true },
  });
  if (!entity) throw notFound(`Entity ${entityId}`);
  const visible = { orgId: principal.orgId, namespaceId: entity.namespaceId, scopes: principal.scopes };
  const [row] = await prisma.$queryRaw<EntityRow[]>(
    Prisma.sql`WITH v AS (${visibleLinks(visible, Prisma.sql`e.id = ${entity.id}`)})
      SELECT ${ENTITY_COLUMNS} FROM v JOIN entities e ON e.id = v.entity_id`,
  );
  if (!row) throw notFound(`Entity ${entityId}`);
  activity.namespaceId = entity.namespaceId;
  return { ...entityJson(row), co_occurring: await coOccurring(visible, entity.id) };
}

/** The entities the visible memories mentioning `entityId` also mention, with how many such memories each. */
async function coOccurring(
  visible: { orgId: string; namespaceId: string; scopes: Record<string, string> },
  entityId: string,
): Promise<CoOccurringJson[]> {
  const prisma = await db();
  const filter = memoryFilter(visible, "m");
  const rows = await prisma.$queryRaw<{ id: string; kind: EntityKind; name: string; shared: number }[]>(
    Prisma.sql`SELECT o.id, o.kind, o.name, count(*)::int AS shared
      FROM memory_entities l
      JOIN memories m ON m.id = l.memory_id
      JOIN memory_entities other ON other.memory_id = l.memory_id AND other.entity_id <> l.entity_id
      JOIN entities o ON o.id = other.entity_id
      WHERE l.entity_id = ${entityId} AND l.org_id = ${visible.orgId} AND l.namespace_id = ${visible.namespaceId}
        AND ${filter}
      GROUP BY o.id, o.kind, o.name
      ORDER BY shared DESC, o.name, o.id
      LIMIT ${CO_OCCURRING_SHOWN}`,
  );
  return rows.map((row) => ({
    entity: { id: row.id, kind: row.kind, name: row.name } satisfies EntityRefJson,
    shared_memories: Number(row.shared),
  }));
}

named(EntityDetailSchema, "EntityDetail");
