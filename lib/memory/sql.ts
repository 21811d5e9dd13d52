import type { Scopes } from "@/lib/auth/scopes";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Metadata } from "./schemas";

/** The full-text configuration shared by indexing and querying: English stop words and Snowball stemming. */
export const TEXT_SEARCH_CONFIG = "english";

export function vectorLiteral(vector: number[]): string {
  return `[${vector.join(",")}]`;
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
  return Prisma.join(clauses, " AND ");
}
