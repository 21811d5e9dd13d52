// The one deletion path of memories (forget, expiry, a rolled-back write, forgetting an identity, an
// integration's sync): rows, chunks, vectors, postings, the term statistics they counted toward, and their
// entity links (with the entities no other memory names).
import type { Tx } from "@/lib/db";
import { deleteEmptiedDocuments, documentsOfMemories } from "./document-erasure";
import { Prisma } from "@/lib/generated/prisma/client";
import { unlinkEntities } from "../entities/link-entities";
import type { DeletionReason } from "@/lib/event-recording/event-types";
import { recordDeletionEvents } from "@/lib/event-recording/record-events";
import { lockNamespaceStatistics } from "@/lib/namespaces/statistics-lock";
import { reopenReplacedBy } from "../validity/supersession";

const MEMORIES_PER_STATEMENT = 1_000;

/**
 * Takes chunks about to be deleted out of the document frequencies and length totals of their namespace
 * and of their scope signature.
 */
export async function subtractTermStatistics(tx: Tx, namespaceId: string, chunkIds: string[]) {
  if (chunkIds.length === 0) return;
  await lockNamespaceStatistics(tx, namespaceId);
  await tx.$executeRaw(
    Prisma.sql`UPDATE namespace_terms t SET df = t.df - gone.n
     FROM (SELECT term, count(*) AS n FROM chunk_terms WHERE chunk_id = ANY(${chunkIds}::text[]) GROUP BY term) gone
     WHERE t.namespace_id = ${namespaceId} AND t.term = gone.term`,
  );
  await tx.$executeRaw(Prisma.sql`DELETE FROM namespace_terms WHERE namespace_id = ${namespaceId} AND df <= 0`);
  await tx.$executeRaw(
    Prisma.sql`UPDATE namespace_search_stats s
     SET chunk_count = s.chunk_count - gone.n, total_terms = s.total_terms - gone.terms
     FROM (SELECT count(*) AS n, COALESCE(sum(term_count), 0) AS terms
           FROM memory_chunks WHERE id = ANY(${chunkIds}::text[])) gone
     WHERE s.namespace_id = ${namespaceId}`,
  );
  await subtractScopeStatistics(tx, namespaceId, chunkIds);
}

/** Takes chunks out of the statistics of their scope signature (chunks without scopes count toward none). */
export async function subtractScopeStatistics(tx: Tx, namespaceId: string, chunkIds: string[]) {
  if (chunkIds.length === 0) return;
  await lockNamespaceStatistics(tx, namespaceId);
  const [scoped] = await tx.$queryRaw<{ any: boolean }[]>(
    Prisma.sql`SELECT EXISTS (SELECT 1 FROM memory_chunks WHERE id = ANY(${chunkIds}::text[]) AND scope_key IS NOT NULL)
              AS any`,
  );
  if (!scoped.any) return;
  await tx.$executeRaw(
    Prisma.sql`UPDATE scope_terms t SET df = t.df - gone.n
     FROM (SELECT scope_key, term, count(*) AS n FROM chunk_terms
           WHERE chunk_id = ANY(${chunkIds}::text[]) AND scope_key IS NOT NULL GROUP BY scope_key, term) gone
     WHERE t.namespace_id = ${namespaceId} AND t.scope_key = gone.scope_key AND t.term = gone.term`,
  );
  await tx.$executeRaw(Prisma.sql`DELETE FROM scope_terms WHERE namespace_id = ${namespaceId} AND df <= 0`);
  await tx.$executeRaw(
    Prisma.sql`UPDATE scope_search_stats s
     SET chunk_count = s.chunk_count - gone.n, total_terms = s.total_terms - gone.terms
     FROM (SELECT scope_key, count(*) AS n, COALESCE(sum(term_count), 0) AS terms
           FROM memory_chunks WHERE id = ANY(${chunkIds}::text[]) AND scope_key IS NOT NULL GROUP BY scope_key) gone
     WHERE s.namespace_id = ${namespaceId} AND s.scope_key = gone.scope_key`,
  );
  await tx.$executeRaw(
    Prisma.sql`DELETE FROM scope_search_stats WHERE namespace_id = ${namespaceId} AND chunk_count <= 0`,
  );
}

/**
 * Deletes memories of one namespace with their chunks and vectors, taking the chunks out of the term
 * statistics: the one deletion path (forget, a failed batch, forgetting an identity). The facts a chat model
 * derived from any of them (lib/memory/inference) go with them, whatever asked for the deletion: a fact never
 * outlives what it was read from. Each deletion is an event (memory.deleted, with `reason`). Returns how many
 * chunks went and how many of the memories deleted were such facts, besides `memoryIds` (an erasure receipt
 * counts both).
 */
export async function deleteMemories(
  tx: Tx,
  orgId: string,
  namespaceId: string,
  memoryIds: string[],
  options: { reason: DeletionReason; keepDocuments?: boolean },
): Promise<{ chunksDeleted: number; factsDeleted: number }> {
  let chunksDeleted = 0;
  let factsDeleted = 0;
  const named = new Set(memoryIds);
  const lock = (ids: string[]) =>
    tx.$executeRaw(
      Prisma.sql`SELECT 1 FROM (SELECT id FROM memories WHERE org_id = ${orgId} AND id = ANY(${ids}::text[])
                                ORDER BY id FOR UPDATE) locked`,
    );
  for (let i = 0; i < memoryIds.length; i += MEMORIES_PER_STATEMENT) {
    const listed = memoryIds.slice(i, i + MEMORIES_PER_STATEMENT);
    // Locked in one order (id) before the statistics: a concurrent change of one of them (an update, which locks
    // its memory before the statistics, or another deletion) is waited for here, not in a cycle. Their facts are
    // looked for once they are locked: an extraction writing one commits first (it locks its sources last), and
    // is then seen, or finds its sources gone and is undone.
    await lock(listed);
    const facts = (await derivedFacts(tx, orgId, namespaceId, listed)).filter((id) => !named.has(id));
    for (const id of facts) named.add(id);
    await lock(facts);
    factsDeleted += facts.length;
    const batch = [...listed, ...facts];
    // A document whose every passage is forgotten goes with the last one (not while it is being reprocessed).
    const documentIds = options.keepDocuments ? [] : await documentsOfMemories(tx, orgId, batch);
    const chunks = await tx.$queryRaw<{ id: string }[]>(
      Prisma.sql`SELECT id FROM memory_chunks WHERE org_id = ${orgId} AND memory_id = ANY(${batch}::text[])`,
    );
    await subtractTermStatistics(
      tx,
      namespaceId,
      chunks.map((c) => c.id),
    );
    // What one of them had replaced holds again (or is closed by what replaced that one).
    await reopenReplacedBy(tx, orgId, batch);
    await unlinkEntities(tx, orgId, namespaceId, batch);
    await recordDeletionEvents(tx, orgId, batch, options.reason);
    await tx.memory.deleteMany({ where: { id: { in: batch }, orgId, namespaceId } });
    await withdrawKeptAnswers(tx, orgId, batch);
    await deleteEmptiedDocuments(tx, orgId, documentIds);
    chunksDeleted += chunks.length;
  }
  return { chunksDeleted, factsDeleted };
}

/** The facts of a namespace derived from any of these memories (memories_derived_from_idx). */
async function derivedFacts(tx: Tx, orgId: string, namespaceId: string, memoryIds: string[]): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT id FROM memories
               WHERE org_id = ${orgId} AND namespace_id = ${namespaceId} AND derived_from && ${memoryIds}::text[]`,
  );
  return rows.map((row) => row.id);
}

/**
 * The ids of the memories an answer's `data` shows (remember: one or a batch; PATCH: one): kept with an
 * Idempotency-Key answer (lib/http/idempotency.ts, given by the API layer) for withdrawKeptAnswers.
 */
export function memoryIdsShownIn(data: unknown): string[] {
  const items = Array.isArray(data) ? data : [data];
  return items.flatMap((item) => {
    const id = (item as { id?: unknown } | null)?.id;
    return typeof id === "string" && id.startsWith("mem_") ? [id] : [];
  });
}

/**
 * Idempotency-Key answers kept for a retry (lib/http/idempotency.ts) show the memories they stored: when
 * those are deleted the answers are cleared, so no copy of a memory's content outlives its erasure, and
 * marked withdrawn, so that a retry is refused rather than done again (bringing back what was erased).
 */
export async function withdrawKeptAnswers(tx: Tx, orgId: string, memoryIds: string[]) {
  await tx.$executeRaw(
    Prisma.sql`UPDATE idempotency_keys SET response_encrypted = NULL, withdrawn_at = now()
     WHERE org_id = ${orgId} AND memory_ids && ${memoryIds}::text[]`,
  );
}
