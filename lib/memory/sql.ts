import type { Scopes } from "@/lib/auth/scopes";
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
}

/**
 * The WHERE clause selecting the chunks (alias `c`) or memories (alias `m`, whose own id is the memory
 * id) an operation may touch: always bounded by organization and namespace, then by every scope pair,
 * identity and metadata value asked for. Parameters are appended to `params` and referred to by position.
 */
export function memoryFilterSql(filter: ChunkFilter, params: unknown[], alias: "c" | "m" = "c"): string {
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const clauses = [`${alias}.org_id = ${add(filter.orgId)}`, `${alias}.namespace_id = ${add(filter.namespaceId)}`];
  if (filter.scopes && Object.keys(filter.scopes).length)
    clauses.push(`${alias}.scopes @> ${add(JSON.stringify(filter.scopes))}::jsonb`);
  if (filter.identityId !== undefined) clauses.push(`${alias}.identity_id = ${add(filter.identityId)}`);
  if (filter.metadata && Object.keys(filter.metadata).length)
    clauses.push(`${alias}.metadata @> ${add(JSON.stringify(filter.metadata))}::jsonb`);
  if (filter.memoryIds)
    clauses.push(`${alias}.${alias === "m" ? "id" : "memory_id"} = ANY(${add(filter.memoryIds)}::text[])`);
  return clauses.join(" AND ");
}
