// The entities each recalled memory mentions, read for a whole page of matches in one statement.
import { queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { EntityKind } from "../common/entity-kinds";
import type { EntityRefJson } from "../common/entity-ref";

/**
 * By memory id, the entities these memories of one namespace mention, the most mentioned first. The
 * memories were found within the reader's scopes, so every entity they mention is one the reader may see.
 */
export async function entitiesOfMemories(
  orgId: string,
  namespaceId: string,
  memoryIds: string[],
): Promise<Map<string, EntityRefJson[]>> {
  const byMemory = new Map<string, EntityRefJson[]>();
  if (memoryIds.length === 0) return byMemory;
  const ids = [...new Set(memoryIds)];
  const rows = await queryRows<{ memory_id: string; id: string; kind: EntityKind; name: string }>(
    // Each link's entity by its key (LATERAL … OFFSET 0 keeps the planner from hashing every entity of the
    // organization to join a few dozen links: 1.5 ms of the embedded database's thread per recall).
    Prisma.sql`SELECT l.memory_id, e.id, e.kind, e.name
      FROM memory_entities l
      CROSS JOIN LATERAL (SELECT e.id, e.kind, e.name FROM entities e
                          WHERE e.id = l.entity_id AND e.org_id = ${orgId} OFFSET 0) e
      WHERE l.org_id = ${orgId} AND l.namespace_id = ${namespaceId} AND l.memory_id = ANY(${ids}::text[])
      ORDER BY l.memory_id, l.mentions DESC, e.name, e.id`,
  );
  for (const row of rows) {
    const entity = { id: row.id, kind: row.kind, name: row.name };
    const list = byMemory.get(row.memory_id);
    if (list) list.push(entity);
    else byMemory.set(row.memory_id, [entity]);
  }
  return byMemory;
}
