// Remember's deduplication: a memory already stored with the same content, identity and scopes is returned
// instead of being stored again.
import type { Scopes } from "@/lib/auth/scopes";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { MemoryRow } from "../common/schemas";
import { canonicalJson } from "@/lib/http/canonical-json";
import { awaitFinishedWrites, unfinishedMemories } from "../store/unfinished-writes";

export interface Duplicates {
  /** Candidates (by index) repeating a stored memory: that memory. */
  stored: Map<number, MemoryRow>;
  /** Candidates repeating an earlier candidate of the same request (by index): stored once, as that one. */
  repeats: Map<number, number>;
}

/**
 * Which candidates repeat a memory: same content, identity and scopes in the namespace, neither of them a
 * conversation turn nor set to expire (a memory that expires says something for a while only: the request's
 * own expiry must not be dropped in favour of another's, nor the other way round). Read through `client`
 * when given: inside a transaction (on the embedded database, the only way to read while one is open).
 */
export async function findDuplicates(
  orgId: string,
  namespaceId: string,
  candidates: { contentHash: string; identityId: string | null; scopes: Scopes; expiresAt: Date | null }[],
  client?: Tx,
): Promise<Duplicates> {
  const eligible = candidates.flatMap((candidate, index) => (candidate.expiresAt === null ? [index] : []));
  const duplicates: Duplicates = { stored: new Map(), repeats: new Map() };
  if (eligible.length === 0) return duplicates;
  const hashes = eligible.map((index) => candidates[index].contentHash);
  const identityIds = eligible.map((index) => candidates[index].identityId);
  const scopes = eligible.map((index) => JSON.stringify(candidates[index].scopes));
  // At most one row per candidate: the oldest memory with exactly its content, identity and scopes.
  const rows = await (client ?? (await db())).$queryRaw<(MemoryRow & { contentHash: string })[]>(
    Prisma.sql`SELECT DISTINCT ON (m.content_hash, m.identity_id, m.scopes)
            m.id, m.namespace_id AS "namespaceId", m.content, m.metadata, m.scopes, m.identity_id AS "identityId",
            m.chunk_count AS "chunkCount", m.session_id AS "sessionId", m.session_position AS "sessionPosition",
            m.role, m.occurred_at AS "occurredAt", m.expires_at AS "expiresAt", m.version,
            m.created_at AS "createdAt", m.updated_at AS "updatedAt", m.content_hash AS "contentHash",
            m.valid_at AS "validAt", m.invalid_at AS "invalidAt", m.superseded_by AS "supersededBy", m.supersession,
            m.fact_key AS "factKey", m.kind, m.derived_from AS "derivedFrom", m.inference,
            ARRAY(SELECT s.id FROM memories s WHERE s.org_id = m.org_id AND s.superseded_by = m.id
                  ORDER BY s.valid_at, s.id) AS supersedes
     FROM memories m
     JOIN unnest(${hashes}::text[], ${identityIds}::text[], ${scopes}::text[]) AS c(content_hash, identity_id, scopes)
       ON m.content_hash = c.content_hash AND m.identity_id IS NOT DISTINCT FROM c.identity_id
          AND m.scopes = c.scopes::jsonb
     WHERE m.org_id = ${orgId} AND m.namespace_id = ${namespaceId} AND m.session_id IS NULL AND m.expires_at IS NULL
       AND m.kind = 'memory' -- a caller's write is never answered with a model's fact (forgotten with its source)
     ORDER BY m.content_hash, m.identity_id, m.scopes, m.created_at, m.id`,
  );
  const signature = (hash: string, identityId: string | null, scopes: unknown) =>
    canonicalJson([hash, identityId, scopes]);
  const known = new Map(rows.map((row) => [signature(row.contentHash, row.identityId, row.scopes), row]));
  const firstInRequest = new Map<string, number>();
  for (const index of eligible) {
    const candidate = candidates[index];
    const key = signature(candidate.contentHash, candidate.identityId, candidate.scopes);
    const stored = known.get(key);
    if (stored) duplicates.stored.set(index, stored);
    else if (firstInRequest.has(key)) duplicates.repeats.set(index, firstInRequest.get(key)!);
    else firstInRequest.set(key, index);
  }
  return duplicates;
}

/**
 * findDuplicates outside a transaction, answering only with twins whose writes have finished: a twin of a
 * write still under way (unfinished-writes.ts) is waited for, then looked for again (it may have been rolled
 * back, and its place is free).
 */
export async function findFinishedDuplicates(
  orgId: string,
  namespaceId: string,
  candidates: Parameters<typeof findDuplicates>[2],
): Promise<Duplicates> {
  for (;;) {
    const duplicates = await findDuplicates(orgId, namespaceId, candidates);
    const twins = [...duplicates.stored.values()].map((twin) => twin.id);
    const unfinished = await unfinishedMemories(orgId, twins);
    if (unfinished.length === 0) return duplicates;
    await awaitFinishedWrites(orgId, unfinished);
  }
}
