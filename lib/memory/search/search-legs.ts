import { queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Scopes } from "@/lib/auth/scopes";
import { embedder } from "../embeddings";
import type { RelevanceFloor } from "./ranking";
import type { Metadata } from "../common/schemas";
import { memoryFilter, TEXT_SEARCH_CONFIG_SQL, vectorParameter, type EntityNamed } from "../common/sql";
import { withWordBreaks } from "../common/word-breaks";

// The statements of a search as SQL. The two legs are lib/memory/search/lexical-leg.ts (BM25 over the postings)
// and lib/memory/search/vector-leg.ts (the nearest vectors); here is what they share, and the statements that
// score chunks the legs did not return. Ranking them is lib/memory/search/ranking.ts; putting them together,
// lib/memory/search/search.ts.

/** BM25 parameters (Robertson/Lucene defaults). */
export const BM25 = { k1: 1.2, b: 0.75 };

export type SearchMode = "hybrid" | "vector" | "fulltext";

export interface SearchRequest {
  orgId: string;
  namespaceId: string;
  query: string;
  topK: number;
  minScore?: number;
  scopes?: Scopes;
  /**
   * The scopes of the key searching: BM25's statistics (chunk count, average length, document
   * frequencies) are taken over the chunks carrying them, what the key may see, so that its scores do not
   * depend on memories outside its scopes. Absent or empty: the whole namespace. Scopes the request adds
   * only filter, as metadata does: they narrow what the caller already sees.
   */
  statisticsScopes?: Scopes;
  identityId?: string;
  metadata?: Metadata;
  /** Only turns of this conversation. */
  sessionId?: string;
  /** ISO 8601 bounds on event time: at or after, and before. */
  occurredAfter?: string;
  occurredBefore?: string;
  /** Entities every memory found must mention (recall's `entities`). */
  entities?: EntityNamed[];
  mode?: SearchMode;
  /** The query's embedding, when the caller already has it or has started it; otherwise it is computed. */
  queryVector?: number[] | Promise<number[]>;
  /** Overrides of the BM25 parameters, for measuring them (bench/). */
  bm25?: { k1: number; b: number };
  /** Overrides NEIGHBOUR_SHARE (lib/memory/search/ranking.ts), for measuring what neighbour evidence adds (bench/). */
  neighbourShare?: number;
  /** Overrides SPEAKER_FOCUS (lib/memory/search/ranking.ts), for measuring what it adds (bench/). */
  speakerFocus?: number;
  /** Overrides ENTITY_BOOST (search/ranking.ts; 0: off), for measuring what the query's entities add (bench/). */
  entityBoost?: number;
  /** Overrides DATE_FOCUS (lib/memory/search/ranking.ts; 1: off), for measuring what the query's dates add (bench/). */
  dateFocus?: number;
  /** Overrides ENTITY_HOP (lib/memory/search/ranking.ts; 0: off), for measuring what the second hop adds (bench/). */
  entityHop?: number;
  /** Overrides TURN_PRIOR (lib/memory/search/ranking.ts; 1 and 1: off), for measuring what it adds (bench/). */
  turnPrior?: { asking: number; short: number };
  /** Overrides FEEDBACK_WEIGHT (search/ranking.ts; 0: off), for measuring what the feedback step adds (bench/). */
  feedbackWeight?: number;
  /** Overrides EXACT_VECTOR_SCAN_LIMIT, for measuring it and testing both paths. */
  exactVectorScanLimit?: number;
  /** Overrides COMMON_TERM_MIN_CHUNKS, for measuring it and testing both paths. */
  commonTermMinChunks?: number;
  /** Overrides RELEVANCE_FLOOR (search/ranking.ts), the floor without `minScore`, for measuring it (bench/). */
  relevanceFloor?: RelevanceFloor;
}

export interface ChunkRow {
  id: string;
  memory_id: string;
  content: string;
  metadata: Record<string, unknown>;
  scopes: Record<string, string>;
  identity_id: string | null;
  session_id: string | null;
  session_position: number | null;
  role: string | null;
  occurred_at: Date;
  created_at: Date;
  /** The memory's validity (lib/memory/validity), copied to its chunks. */
  valid_at: Date;
  invalid_at: Date | null;
  superseded_by: string | null;
  supersession_kind: string | null;
}

/** The columns of a ChunkRow (alias `c`). */
export const CHUNK_ROW_COLUMNS = Prisma.sql`c.id, c.memory_id, c.content, c.metadata, c.scopes, c.identity_id,
  c.session_id, c.session_position, c.role, c.occurred_at, c.created_at, c.valid_at, c.invalid_at, c.superseded_by,
  c.supersession_kind`;

/** The scope signatures (distinct scopes objects) a request's scope filter admits, and their chunk count. */
export interface ScopeSelection {
  keys: string[];
  chunkCount: number;
}

/**
 * The chunk filter of a request (alias `c`). Given the scope signatures the request's scopes select (or
 * `"selected"`: the statement's own `selected` CTE), it tests the chunk's signature instead of testing
 * jsonb containment chunk by chunk.
 */
export function chunkFilter(request: SearchRequest, scopeKeys?: string[] | "selected"): Prisma.Sql {
  const { orgId, namespaceId, identityId, metadata, sessionId, occurredAfter, occurredBefore, entities } = request;
  const scopes = scopeKeys ? undefined : request.scopes;
  const clauses = memoryFilter({
    orgId,
    namespaceId,
    scopes,
    identityId,
    metadata,
    sessionId,
    occurredAfter,
    occurredBefore,
    entities,
  });
  if (!scopeKeys) return clauses;
  const keys =
    scopeKeys === "selected" ? Prisma.sql`(SELECT keys FROM selected)::text[]` : Prisma.sql`${scopeKeys}::text[]`;
  return Prisma.sql`${clauses} AND c.scope_key = ANY(${keys})`;
}

export const hasScopeFilter = (request: SearchRequest) => Boolean(request.scopes && Object.keys(request.scopes).length);

/**
 * The CTE `selected`: the signatures carrying every pair of the request's scope filter (a handful of
 * rows per namespace), and how many chunks carry them.
 */
export function selectedScopesSql(request: SearchRequest) {
  return Prisma.sql`selected AS MATERIALIZED (
       SELECT COALESCE(array_agg(s.scope_key), '{}') AS keys, COALESCE(sum(s.chunk_count), 0)::int AS chunk_count
       FROM scope_search_stats s JOIN namespaces n ON n.id = s.namespace_id AND n.org_id = ${request.orgId}
       WHERE s.namespace_id = ${request.namespaceId} AND s.scopes @> ${JSON.stringify(request.scopes)}::jsonb
     )`;
}

export const namespaceChunkCountSql = (namespaceId: string) =>
  Prisma.sql`(SELECT COALESCE(max(chunk_count), 0) FROM namespace_search_stats
               WHERE namespace_id = ${namespaceId})::int`;

/**
 * The scope selection and the namespace's chunk count on their own, for a search without a lexical leg
 * (which otherwise reads them).
 */
export async function scopeSelection(
  request: SearchRequest,
): Promise<{ selection?: ScopeSelection; namespaceChunkCount: number }> {
  const scoped = hasScopeFilter(request);
  const [row] = await queryRows<{ keys: string[] | null; chunk_count: number | null; namespace_chunk_count: number }>(
    scoped
      ? Prisma.sql`WITH ${selectedScopesSql(request)}
         SELECT keys, chunk_count, ${namespaceChunkCountSql(request.namespaceId)} AS namespace_chunk_count
         FROM selected`
      : Prisma.sql`SELECT NULL AS keys, NULL AS chunk_count,
                ${namespaceChunkCountSql(request.namespaceId)} AS namespace_chunk_count`,
  );
  const selection = scoped ? { keys: row.keys ?? [], chunkCount: Number(row.chunk_count) } : undefined;
  return { selection, namespaceChunkCount: row.namespace_chunk_count };
}

/**
 * The BM25 statistics CTEs (`stats`, and `qt`: the query's terms with their idf, each with its `bit`, a bit string
 * as long as the query has terms with only the term's own bit set, the `ordinal`-th from the left) and one
 * posting's BM25 term.
 */
export function bm25Sql(request: SearchRequest) {
  const ns = request.namespaceId;
  const k1 = request.bm25?.k1 ?? BM25.k1;
  const b = request.bm25?.b ?? BM25.b;
  const scoped = request.statisticsScopes && Object.keys(request.statisticsScopes).length > 0;
  // Scoped: summed over the scope signatures (distinct scopes objects) that contain the key's pairs.
  const totals = scoped
    ? Prisma.sql`scope_sets AS MATERIALIZED (
       SELECT scope_key, chunk_count, total_terms FROM scope_search_stats
       WHERE namespace_id = ${ns} AND scopes @> ${JSON.stringify(request.statisticsScopes)}::jsonb
     ),
     totals AS (SELECT sum(chunk_count) AS chunk_count, sum(total_terms) AS total_terms FROM scope_sets)`
    : Prisma.sql`totals AS (SELECT max(chunk_count) AS chunk_count, max(total_terms) AS total_terms
                FROM namespace_search_stats WHERE namespace_id = ${ns})`;
  const documentFrequency = scoped
    ? Prisma.sql`LEFT JOIN LATERAL (SELECT sum(st.df) AS df
                          FROM scope_sets s
                          JOIN scope_terms st
                            ON st.namespace_id = ${ns} AND st.scope_key = s.scope_key AND st.term = q.lexeme) t ON true`
    : Prisma.sql`LEFT JOIN namespace_terms t ON t.namespace_id = ${ns} AND t.term = q.lexeme`;
  const statistics = Prisma.sql`${totals},
     stats AS (
       SELECT n, ${k1}::float8 * (1 - ${b}::float8) AS k1_a, ${k1}::float8 * ${b}::float8 / avg_terms AS k1_b
       FROM (SELECT COALESCE(chunk_count, 0)::float8 AS n,
                    GREATEST(COALESCE(total_terms::float8 / NULLIF(chunk_count, 0), 1), 1) AS avg_terms
             FROM totals) s
     ),
     -- Every meaningful query term counts toward the best possible score, also one no chunk has.
     -- idf carries the (k1 + 1) factor of BM25.
     qt AS MATERIALIZED (
       SELECT q.lexeme AS term, COALESCE(t.df, 0)::float8 AS df, row_number() OVER () - 1 AS ordinal,
              set_bit(repeat('0', (count(*) OVER ())::int)::varbit, (row_number() OVER () - 1)::int, 1) AS bit,
              (${k1}::float8 + 1)
                * ln(1 + (stats.n - COALESCE(t.df, 0)::float8 + 0.5) / (COALESCE(t.df, 0)::float8 + 0.5)) AS idf
       FROM (SELECT DISTINCT lexeme
             FROM unnest(to_tsvector(${TEXT_SEARCH_CONFIG_SQL}, ${withWordBreaks(request.query)}))) q
       CROSS JOIN stats
       ${documentFrequency}
     )`;
  // BM25 of one posting, in float8 throughout (numeric arithmetic on every posting was the slow part).
  const bm25Term = Prisma.sql`qt.idf * p.tf / (p.tf + stats.k1_a + stats.k1_b * p.term_count)`;
  return { statistics, bm25Term };
}

/**
 * The conversation turns at the given places (session and position), filters applied, each chunk with
 * its BM25 (`withBm25`; otherwise 0: a lexical leg that was not cut short found every chunk sharing a
 * word) with the query terms it has, and, given the query vector, its cosine (null for a chunk of another
 * embedding model): the neighbours of the best turns that neither leg found,
 * scored as the legs would have scored them.
 */
export async function turnsAt(
  request: SearchRequest,
  selection: ScopeSelection | undefined,
  vector: number[] | undefined,
  places: { sessionId: string; position: number }[],
  withBm25: boolean,
): Promise<(ChunkRow & { bm25: number; terms: string[]; cosine: number | null })[]> {
  const ns = request.namespaceId;
  const scoring = withBm25 ? bm25Sql(request) : undefined;
  const bm25 = scoring
    ? Prisma.sql`, s.bm25, s.terms FROM places pl
     JOIN memory_chunks c ON c.namespace_id = ${ns} AND c.session_id = pl."sessionId"
                         AND c.session_position = pl."position"
     CROSS JOIN LATERAL (SELECT COALESCE(sum(${scoring.bm25Term}), 0)::float8 AS bm25,
                                COALESCE(array_agg(qt.term), '{}') AS terms
                         FROM qt
                         JOIN chunk_terms p ON p.namespace_id = ${ns} AND p.term = qt.term AND p.chunk_id = c.id
                         CROSS JOIN stats) s`
    : Prisma.sql`, 0::float8 AS bm25, '{}'::text[] AS terms FROM places pl
     JOIN memory_chunks c ON c.namespace_id = ${ns} AND c.session_id = pl."sessionId"
                         AND c.session_position = pl."position"`;
  const cosine = vector
    ? Prisma.sql`CASE WHEN c.embedding_model = ${embedder().model}::text
            THEN (1 - (c.embedding <=> ${vectorParameter(vector)}::vector))::float8 END`
    : Prisma.sql`NULL`;
  return queryRows<ChunkRow & { bm25: number; terms: string[]; cosine: number | null }>(
    Prisma.sql`WITH ${scoring ? Prisma.sql`${scoring.statistics},` : Prisma.empty}
     places AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(places)}::jsonb)
                AS p("sessionId" text, "position" int))
     SELECT ${CHUNK_ROW_COLUMNS}, ${cosine}::float8 AS cosine ${bm25}
     WHERE ${chunkFilter(request, selection?.keys)}`,
  );
}

/**
 * The similarity of each of the given chunks to the query moved toward its best results (the feedback step,
 * lib/memory/search/ranking.ts FEEDBACK_WEIGHT): the query's vector plus the normalized mean of the `seeds`' vectors.
 * Chunks of another embedding model, and seeds of one, are left out.
 */
export async function feedbackSimilarities(
  request: SearchRequest,
  selection: ScopeSelection | undefined,
  vector: number[],
  seedIds: string[],
  chunkIds: string[],
): Promise<Map<string, number>> {
  const model = embedder().model;
  const norm = Math.hypot(...vector) || 1;
  const query = vectorParameter(vector.map((x) => x / norm));
  const rows = await queryRows<{ id: string; similarity: number | null }>(
    Prisma.sql`WITH seeds AS (
       SELECT l2_normalize(avg(c.embedding)) AS centroid FROM memory_chunks c
       WHERE c.id = ANY(${seedIds}::text[]) AND c.embedding_model = ${model}::text
         AND ${chunkFilter(request, selection?.keys)})
     SELECT c.id, (1 - (c.embedding <=> (${query}::vector + seeds.centroid)))::float8 AS similarity
     FROM memory_chunks c CROSS JOIN seeds
     WHERE seeds.centroid IS NOT NULL AND c.id = ANY(${chunkIds}::text[]) AND c.embedding_model = ${model}::text
       AND ${chunkFilter(request, selection?.keys)}`,
  );
  // A zero vector's distance is NaN in pgvector, not NULL.
  return new Map(
    rows.flatMap(({ id, similarity }) =>
      similarity !== null && Number.isFinite(similarity) ? [[id, similarity] as const] : [],
    ),
  );
}

/**
 * Exact BM25 of the given chunks, with the query terms each has (those with no shared word are left out:
 * their BM25 is 0).
 */
export async function bm25Of(
  request: SearchRequest,
  chunkIds: string[],
): Promise<Map<string, { bm25: number; terms: string[] }>> {
  const { statistics, bm25Term } = bm25Sql(request);
  const rows = await queryRows<{ chunk_id: string; bm25: number; terms: string[] }>(
    Prisma.sql`WITH ${statistics}
     SELECT p.chunk_id, sum(${bm25Term})::float8 AS bm25, array_agg(qt.term) AS terms
     FROM qt
     JOIN chunk_terms p ON p.namespace_id = ${request.namespaceId} AND p.term = qt.term
                       AND p.chunk_id = ANY(${chunkIds}::text[])
     CROSS JOIN stats
     GROUP BY p.chunk_id`,
  );
  return new Map(rows.map((row) => [row.chunk_id, { bm25: row.bm25, terms: row.terms }]));
}

export async function chunkRows(
  request: SearchRequest,
  selection: ScopeSelection | undefined,
  chunkIds: string[],
): Promise<Map<string, ChunkRow>> {
  const rows = await queryRows<ChunkRow>(
    Prisma.sql`SELECT ${CHUNK_ROW_COLUMNS}
     FROM memory_chunks c WHERE c.id = ANY(${chunkIds}::text[]) AND ${chunkFilter(request, selection?.keys)}`,
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The chunks of the given memories, filters applied, each with its BM25 and the query terms it has, and,
 * given the query vector, its cosine (null for a chunk of another embedding model): memories the entity steps
 * bring in that neither leg found, scored as the legs would have scored them.
 */
export async function chunksOfMemories(
  request: SearchRequest,
  selection: ScopeSelection | undefined,
  vector: number[] | undefined,
  memoryIds: string[],
): Promise<(ChunkRow & { bm25: number; terms: string[]; cosine: number | null })[]> {
  const ns = request.namespaceId;
  const scoring = bm25Sql(request);
  const cosine = vector
    ? Prisma.sql`CASE WHEN c.embedding_model = ${embedder().model}::text
            THEN (1 - (c.embedding <=> ${vectorParameter(vector)}::vector))::float8 END`
    : Prisma.sql`NULL`;
  return queryRows<ChunkRow & { bm25: number; terms: string[]; cosine: number | null }>(
    Prisma.sql`WITH ${scoring.statistics}
     SELECT ${CHUNK_ROW_COLUMNS}, ${cosine}::float8 AS cosine, s.bm25, s.terms
     FROM memory_chunks c
     CROSS JOIN LATERAL (SELECT COALESCE(sum(${scoring.bm25Term}), 0)::float8 AS bm25,
                                COALESCE(array_agg(qt.term), '{}') AS terms
                         FROM qt
                         JOIN chunk_terms p ON p.namespace_id = ${ns} AND p.term = qt.term AND p.chunk_id = c.id
                         CROSS JOIN stats) s
     WHERE c.memory_id = ANY(${memoryIds}::text[]) AND ${chunkFilter(request, selection?.keys)}`,
  );
}
