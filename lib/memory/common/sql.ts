import type { Scopes } from "@/lib/auth/scopes";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Metadata } from "./schemas";

/** The full-text configuration shared by indexing and querying: English stop words and Snowball stemming. */
export const TEXT_SEARCH_CONFIG = "english";
/** TEXT_SEARCH_CONFIG as SQL, a quoted literal in the statement (`to_tsvector(${TEXT_SEARCH_CONFIG_SQL}, …)`). */
export const TEXT_SEARCH_CONFIG_SQL = Prisma.raw(`'${TEXT_SEARCH_CONFIG}'`);

/**
 * A vector as a statement parameter in pgvector's binary format (vector_recv: int16 dimensions, int16 0, then
 * each element as a big-endian float4), for `${vectorParameter(v)}::vector` in a statement sent by queryRows or
 * through Prisma (both drivers send bytes in binary format). The same vector as the text `[0.1,…]`, which for
 * 512 dimensions was 10 KB to format on the main thread and to parse element by element in the database.
 * Throws a RangeError past pgvector's 16,000 dimensions.
 */
export function vectorParameter(vector: number[]): Uint8Array {
  if (vector.length > 16_000) throw new RangeError(`A vector has at most 16000 dimensions, not ${vector.length}.`);
  const bytes = new Uint8Array(4 + 4 * vector.length);
  const view = new DataView(bytes.buffer);
  view.setInt16(0, vector.length);
  for (let i = 0; i < vector.length; i++) view.setFloat32(4 + 4 * i, vector[i]);
  return bytes;
}

export interface ChunkFilter {
  orgId: string;
  namespaceId: string;
  scopes?: Scopes;
  identityId?: string;
  metadata?: Metadata;
  memoryIds?: string[];
  sessionId?: string;
  /** ISO 8601 bounds on event time: at or after, and before. */
  occurredAfter?: string;
  occurredBefore?: string;
  /** Expired memories are never returned; only deletion (forget, the sweep) still selects them. */
  includeExpired?: boolean;
  /** Entities every memory must mention (recall's `entities`): see entitiesFilterSql. */
  entities?: EntityNamed[];
}

/** An entity as a request names it: its id or a name as given, and that name's key (entityKey). */
export interface EntityNamed {
  given: string;
  key: string;
}

/** A memory (or chunk) that has not expired: what every read path shows. */
export function notExpiredSql(alias: string): string {
  return `(${alias}.expires_at IS NULL OR ${alias}.expires_at > now())`;
}

/**
 * The WHERE clause selecting the chunks (alias `c`) or memories (alias `m`, whose own id is the memory
 * id) an operation may touch: always bounded by organization and namespace, then by every scope pair,
 * identity, metadata value, session and event-time bound asked for, and never an expired memory unless
 * asked.
 */
export function memoryFilter(filter: ChunkFilter, alias: "c" | "m" = "c"): Prisma.Sql {
  const a = Prisma.raw(alias);
  const clauses = [Prisma.sql`${a}.org_id = ${filter.orgId}`, Prisma.sql`${a}.namespace_id = ${filter.namespaceId}`];
  if (filter.scopes && Object.keys(filter.scopes).length)
    clauses.push(Prisma.sql`${a}.scopes @> ${JSON.stringify(filter.scopes)}::jsonb`);
  if (filter.identityId !== undefined) clauses.push(Prisma.sql`${a}.identity_id = ${filter.identityId}`);
  if (filter.metadata && Object.keys(filter.metadata).length)
    clauses.push(Prisma.sql`${a}.metadata @> ${JSON.stringify(filter.metadata)}::jsonb`);
  if (filter.memoryIds)
    clauses.push(Prisma.sql`${a}.${Prisma.raw(alias === "m" ? "id" : "memory_id")} = ANY(${filter.memoryIds}::text[])`);
  if (filter.sessionId !== undefined) clauses.push(Prisma.sql`${a}.session_id = ${filter.sessionId}`);
  if (filter.occurredAfter !== undefined)
    clauses.push(Prisma.sql`${a}.occurred_at >= ${filter.occurredAfter}::timestamptz`);
  if (filter.occurredBefore !== undefined)
    clauses.push(Prisma.sql`${a}.occurred_at < ${filter.occurredBefore}::timestamptz`);
  if (!filter.includeExpired) clauses.push(Prisma.raw(notExpiredSql(alias)));
  if (filter.entities?.length) clauses.push(entitiesFilterSql(filter, alias));
  return Prisma.join(clauses, " AND ");
}

/**
 * The memories mentioning every entity named, as one set computed once (not per chunk): each name is an
 * entity's id, its key or an alias (entityKey of what was given), a date's ISO key ("2023-05") or its
 * name in any case ("May 2023"). A name that no entity of the namespace has matches no memory.
 */
function entitiesFilterSql(filter: ChunkFilter, alias: "c" | "m"): Prisma.Sql {
  const named = filter.entities ?? [];
  const memoryId = Prisma.raw(alias === "m" ? "m.id" : "c.memory_id");
  return Prisma.sql`${memoryId} IN (
    SELECT l.memory_id
    FROM unnest(${named.map((n) => n.given)}::text[], ${named.map((n) => n.key)}::text[])
         WITH ORDINALITY AS w(given, key, n)
    JOIN entities e ON e.org_id = ${filter.orgId} AND e.namespace_id = ${filter.namespaceId}
     AND (e.id = w.given OR e.key = w.key OR e.key = w.given OR lower(e.name) = lower(w.given)
          OR w.key = ANY(e.aliases))
    JOIN memory_entities l ON l.entity_id = e.id AND l.namespace_id = ${filter.namespaceId}
    GROUP BY l.memory_id
    HAVING count(DISTINCT w.n) = ${named.length}::int)`;
}
