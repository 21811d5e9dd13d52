// What the entity reads share: an entity as the API shows it, and the one rule deciding which links count.
// Counts and first/last mention are derived from the memories the reader may see, never stored: a stored
// count would tell a key with scopes about memories outside them.
import { z } from "zod";
import type { Scopes } from "@/lib/auth/scopes";
import { Prisma } from "@/lib/generated/prisma/client";
import { named } from "@/lib/validation/named";
import { identifier } from "@/lib/validation/strings";
import { memoryFilter } from "../common/sql";
import { EntityRefSchema } from "../common/entity-ref";
import type { EntityKind } from "../common/entity-kinds";

const Timestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");

export const EntitySchema = EntityRefSchema.extend({
  namespace_id: z.string(),
  aliases: z.array(z.string()).describe('other forms merged into it, normalized ("mel" for "Melanie")'),
  memory_count: z.number().int().describe("memories the caller may see that mention it"),
  mention_count: z.number().int().describe("how many times those memories mention it"),
  first_mentioned_at: Timestamp.describe("the earliest event time (occurred_at) of those memories"),
  last_mentioned_at: Timestamp.describe("the latest event time (occurred_at) of those memories"),
});
export type EntityJson = z.infer<typeof EntitySchema>;

/** An entity id as a request names it: refused only when it could be no id at all; otherwise looked up. */
export const EntityId = identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" });

/** The columns a row of entityJson needs, read from `entities e` and the aggregate `v` of visibleLinks. */
export const ENTITY_COLUMNS = Prisma.sql`e.id, e.namespace_id, e.kind, e.name, e.aliases,
  v.memory_count, v.mention_count, v.first_at, v.last_at`;

export interface EntityRow {
  id: string;
  namespace_id: string;
  kind: EntityKind;
  name: string;
  aliases: string[];
  memory_count: number;
  mention_count: number;
  first_at: Date;
  last_at: Date;
}

export function entityJson(row: EntityRow): EntityJson {
  return {
    id: row.id,
    namespace_id: row.namespace_id,
    kind: row.kind,
    name: row.name,
    aliases: row.aliases,
    memory_count: Number(row.memory_count),
    mention_count: Number(row.mention_count),
    first_mentioned_at: new Date(row.first_at).toISOString(),
    last_mentioned_at: new Date(row.last_at).toISOString(),
  };
}

export interface VisibleMemories {
  orgId: string;
  namespaceId: string;
  /** The reader's scopes: only memories carrying every pair count. */
  scopes: Scopes;
  identityId?: string;
}

/**
 * The links (alias `l`) of the memories (alias `m`) the reader may see in one namespace, aggregated per
 * entity as `entity_id, memory_count, mention_count, first_at, last_at`: the table `v` of every read.
 * `entities` narrows which entities are aggregated (a condition on `e`, the entity of the link).
 */
export function visibleLinks(memories: VisibleMemories, entities: Prisma.Sql = Prisma.sql`TRUE`): Prisma.Sql {
  const filter = memoryFilter(
    {
      orgId: memories.orgId,
      namespaceId: memories.namespaceId,
      scopes: memories.scopes,
      identityId: memories.identityId,
    },
    "m",
  );
  return Prisma.sql`SELECT l.entity_id, count(*)::int AS memory_count, sum(l.mentions)::int AS mention_count,
           min(m.occurred_at) AS first_at, max(m.occurred_at) AS last_at
    FROM memory_entities l
    JOIN memories m ON m.id = l.memory_id
    JOIN entities e ON e.id = l.entity_id
    WHERE l.org_id = ${memories.orgId} AND l.namespace_id = ${memories.namespaceId}
      AND e.org_id = ${memories.orgId} AND e.namespace_id = ${memories.namespaceId}
      AND ${filter} AND ${entities}
    GROUP BY l.entity_id`;
}

/** `%`, `_` and the escape `\` typed in a search mean themselves in the LIKE pattern it becomes. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

// The OpenAPI document's names for these schemas.
named(EntitySchema, "Entity");
