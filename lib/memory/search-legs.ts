import { queryRows } from "@/lib/db";
import type { Scopes } from "@/lib/auth/scopes";
import { embedder } from "./embeddings";
import type { Metadata } from "./schemas";
import { memoryFilterSql, notExpiredSql, TEXT_SEARCH_CONFIG, vectorLiteral } from "./sql";

// The two legs of a search as SQL: BM25 over the postings, and the nearest vectors. Ranking them is
// lib/memory/ranking.ts; putting them together, lib/memory/search.ts.

/** BM25 parameters (Robertson/Lucene defaults). */
export const BM25 = { k1: 1.2, b: 0.75 };

/**
 * Up to this many chunks, a namespace's (or a scope filter's) vectors are compared exactly; past it, a
 * namespace has an HNSW index of its own (lib/db/vector-indexes.ts), so that neither the cost nor the
 * results of its search depend on what other tenants hold. Measured on PGlite through lib/ (SciFact,
 * vector search alone): the namespace's index answers 289 chunks as fast as the exact scan, 573 chunks
 * 0.8 ms faster, 1,149 chunks 2 ms faster, with the same ten nearest (99.4% to 100%); below 500 an index
 * would save little and cost the planner one more partial index to consider on every search.
 */
export const EXACT_VECTOR_SCAN_LIMIT = 500;

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
  mode?: SearchMode;
  /** The query's embedding, when the caller already has it or has started it; otherwise it is computed. */
  queryVector?: number[] | Promise<number[]>;
  /** Overrides of the BM25 parameters, for measuring them (bench/). */
  bm25?: { k1: number; b: number };
  /** Overrides NEIGHBOUR_SHARE (lib/memory/ranking.ts), for measuring what neighbour evidence adds (bench/). */
  neighbourShare?: number;
  /** Overrides SPEAKER_FOCUS (lib/memory/ranking.ts), for measuring what it adds (bench/). */
  speakerFocus?: number;
  /** Overrides EXACT_VECTOR_SCAN_LIMIT, for measuring it and testing both paths. */
  exactVectorScanLimit?: number;
  /** Overrides COMMON_TERM_MIN_CHUNKS, for measuring it and testing both paths. */
  commonTermMinChunks?: number;
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
}

/** The columns of a ChunkRow (alias `c`). */
const CHUNK_ROW_COLUMNS =
  "c.id, c.memory_id, c.content, c.metadata, c.scopes, c.identity_id, c.session_id, c.session_position, c.role, " +
  "c.occurred_at, c.created_at";

export interface LexicalHit {
  chunk_id: string;
  bm25: number;
  /** The hit's row, fetched with it while the query is still being embedded: most results are lexical hits. */
  row: ChunkRow;
}

export interface LexicalResult {
  /** The best possible BM25 of the query in this namespace: every term at its highest weight. */
  bm25Max: number;
  hits: LexicalHit[];
  /** Whether the leg stopped at its limit, so that chunks it left out may still share a word. */
  truncated: boolean;
  /**
   * The most BM25 the common terms it did not read through can add (0 when it read every term): a chunk it
   * left out scores at most its lowest hit plus this.
   */
  skippedBm25Max: number;
  /** The signatures the request's scopes select, read in the same statement. */
  selection?: ScopeSelection;
  /** How many chunks the namespace holds, read in the same statement. */
  namespaceChunkCount: number;
}

/** The scope signatures (distinct scopes objects) a request's scope filter admits, and their chunk count. */
interface ScopeSelection {
  keys: string[];
  chunkCount: number;
}

/**
 * A statement's parameters and the chunk filter (its parameters bound only when a statement uses it: an
 * unused one has no type to infer). Given the scope signatures the request's scopes select (or
 * `"selected"`: the statement's own `selected` CTE), the filter tests the chunk's signature instead of
 * testing jsonb containment chunk by chunk.
 */
function statement(request: SearchRequest, scopeKeys?: string[] | "selected") {
  const params: unknown[] = [];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const filter = () => {
    const { orgId, namespaceId, identityId, metadata, sessionId, occurredAfter, occurredBefore } = request;
    const scopes = scopeKeys ? undefined : request.scopes;
    const clauses = memoryFilterSql(
      { orgId, namespaceId, scopes, identityId, metadata, sessionId, occurredAfter, occurredBefore },
      params,
    );
    if (!scopeKeys) return clauses;
    const keys = scopeKeys === "selected" ? "(SELECT keys FROM selected)::text[]" : `${add(scopeKeys)}::text[]`;
    return `${clauses} AND c.scope_key = ANY(${keys})`;
  };
  return { params, add, filter };
}

const hasScopeFilter = (request: SearchRequest) => Boolean(request.scopes && Object.keys(request.scopes).length);

/**
 * The CTE `selected`: the signatures carrying every pair of the request's scope filter (a handful of
 * rows per namespace), and how many chunks carry them.
 */
function selectedScopesSql(request: SearchRequest, add: (value: unknown) => string) {
  return `selected AS MATERIALIZED (
       SELECT COALESCE(array_agg(s.scope_key), '{}') AS keys, COALESCE(sum(s.chunk_count), 0)::int AS chunk_count
       FROM scope_search_stats s JOIN namespaces n ON n.id = s.namespace_id AND n.org_id = ${add(request.orgId)}
       WHERE s.namespace_id = ${add(request.namespaceId)} AND s.scopes @> ${add(JSON.stringify(request.scopes))}::jsonb
     )`;
}

const namespaceChunkCountSql = (ns: string) =>
  `(SELECT COALESCE(max(chunk_count), 0) FROM namespace_search_stats WHERE namespace_id = ${ns})::int`;

/**
 * The scope selection and the namespace's chunk count on their own, for a search without a lexical leg
 * (which otherwise reads them).
 */
export async function scopeSelection(
  request: SearchRequest,
): Promise<{ selection?: ScopeSelection; namespaceChunkCount: number }> {
  const { params, add } = statement(request);
  const scoped = hasScopeFilter(request);
  const [row] = await queryRows<{ keys: string[] | null; chunk_count: number | null; namespace_chunk_count: number }>(
    scoped
      ? `WITH ${selectedScopesSql(request, add)}
         SELECT keys, chunk_count, ${namespaceChunkCountSql(add(request.namespaceId))} AS namespace_chunk_count
         FROM selected`
      : `SELECT NULL AS keys, NULL AS chunk_count,
                ${namespaceChunkCountSql(add(request.namespaceId))} AS namespace_chunk_count`,
    ...params,
  );
  const selection = scoped ? { keys: row.keys ?? [], chunkCount: Number(row.chunk_count) } : undefined;
  return { selection, namespaceChunkCount: row.namespace_chunk_count };
}

/** The BM25 statistics CTEs (`stats`, and `qt`: the query's terms with their idf) and one posting's BM25 term. */
function bm25Sql(request: SearchRequest, add: (value: unknown) => string) {
  const ns = add(request.namespaceId);
  const query = add(request.query);
  const k1 = add(request.bm25?.k1 ?? BM25.k1);
  const b = add(request.bm25?.b ?? BM25.b);
  const scoped = request.statisticsScopes && Object.keys(request.statisticsScopes).length > 0;
  // Scoped: summed over the scope signatures (distinct scopes objects) that contain the key's pairs.
  const totals = scoped
    ? `scope_sets AS MATERIALIZED (
       SELECT scope_key, chunk_count, total_terms FROM scope_search_stats
       WHERE namespace_id = ${ns} AND scopes @> ${add(JSON.stringify(request.statisticsScopes))}::jsonb
     ),
     totals AS (SELECT sum(chunk_count) AS chunk_count, sum(total_terms) AS total_terms FROM scope_sets)`
    : `totals AS (SELECT max(chunk_count) AS chunk_count, max(total_terms) AS total_terms
                FROM namespace_search_stats WHERE namespace_id = ${ns})`;
  const documentFrequency = scoped
    ? `LEFT JOIN LATERAL (SELECT sum(st.df) AS df
                          FROM scope_sets s
                          JOIN scope_terms st
                            ON st.namespace_id = ${ns} AND st.scope_key = s.scope_key AND st.term = q.lexeme) t ON true`
    : `LEFT JOIN namespace_terms t ON t.namespace_id = ${ns} AND t.term = q.lexeme`;
  const statistics = `${totals},
     stats AS (
       SELECT n, ${k1}::float8 * (1 - ${b}::float8) AS k1_a, ${k1}::float8 * ${b}::float8 / avg_terms AS k1_b
       FROM (SELECT COALESCE(chunk_count, 0)::float8 AS n,
                    GREATEST(COALESCE(total_terms::float8 / NULLIF(chunk_count, 0), 1), 1) AS avg_terms
             FROM totals) s
     ),
     -- Every meaningful query term counts toward the best possible score, also one no chunk has.
     -- idf carries the (k1 + 1) factor of BM25.
     qt AS MATERIALIZED (
       SELECT q.lexeme AS term, COALESCE(t.df, 0)::float8 AS df,
              (${k1}::float8 + 1)
                * ln(1 + (stats.n - COALESCE(t.df, 0)::float8 + 0.5) / (COALESCE(t.df, 0)::float8 + 0.5)) AS idf
       FROM (SELECT DISTINCT lexeme FROM unnest(to_tsvector('${TEXT_SEARCH_CONFIG}', ${query}))) q
       CROSS JOIN stats
       ${documentFrequency}
     )`;
  // BM25 of one posting, in float8 throughout (numeric arithmetic on every posting was the slow part).
  const bm25Term = `qt.idf * p.tf / (p.tf + stats.k1_a + stats.k1_b * p.term_count)`;
  return { ns, statistics, bm25Term };
}

/**
 * A query term in more than this many chunks, and in more than COMMON_TERM_SHARE of them, is common: when
 * the query's rarer terms alone find the leg's limit of chunks, the common term's postings are not read
 * through (Lucene's CommonTermsQuery). Its postings were most of a long question's cost in a large namespace (100,000
 * memories: 48 ms of lexical leg per recall), and a chunk that has only common terms of the query ranks
 * below the chunks that have a rarer one.
 */
export const COMMON_TERM_MIN_CHUNKS = 2_000;
export const COMMON_TERM_SHARE = 0.02;
/**
 * With common terms left out, this many times the leg's limit of the best chunks by the other terms get
 * the common terms' BM25 added (an index lookup each) before the limit is taken.
 */
const COMMON_TERMS_RESCORED = 4;

/**
 * The chunk count each namespace had at its last search in this process. A namespace of no more than
 * COMMON_TERM_MIN_CHUNKS chunks has no common term, and its lexical leg is a simpler statement (0.7 ms less
 * to plan); one that grew past it since is searched through every term, as it was, until the next search.
 */
const lastChunkCounts = new Map<string, number>();
const LAST_CHUNK_COUNTS_KEPT = 10_000;

/**
 * The lexical leg: the best chunks by BM25, filters applied before the limit;
 * with a scope filter, its selection too.
 */
export async function lexicalLeg(request: SearchRequest, limit: number): Promise<LexicalResult> {
  const scoped = hasScopeFilter(request);
  const { params, add, filter } = statement(request, scoped ? "selected" : undefined);
  const { ns, statistics, bm25Term } = bm25Sql(request, add);
  // Postings carry their namespace (resolved within the caller's organization) and scope signature, so
  // without an identity or metadata filter the lexical leg never needs to touch the wide chunk rows.
  const filtered =
    request.identityId !== undefined ||
    Boolean(request.metadata && Object.keys(request.metadata).length) ||
    request.sessionId !== undefined ||
    request.occurredAfter !== undefined ||
    request.occurredBefore !== undefined;
  const postingScopes = scoped && !filtered ? "AND p.scope_key = ANY((SELECT keys FROM selected)::text[])" : "";
  const limitParam = `${add(limit)}::int`;
  /** The chunks with the query's terms that pass `termCondition`, by their BM25 over those terms, best first. */
  const scoredPostings = (termCondition: string, limitSql: string) =>
    `SELECT p.chunk_id, sum(${bm25Term}) AS bm25
     FROM qt
     JOIN chunk_terms p ON p.namespace_id = ${ns} AND p.term = qt.term ${postingScopes}
     ${filtered ? `JOIN memory_chunks c ON c.id = p.chunk_id AND ${filter()}` : ""}
     CROSS JOIN stats
     WHERE ${termCondition}
     GROUP BY p.chunk_id
     ORDER BY bm25 DESC
     LIMIT ${limitSql}`;
  // Parameters are added only by a statement that uses them (an unused one has no type to infer).
  const commonTermsSql = () => {
    const commonMinChunks = add(request.commonTermMinChunks ?? COMMON_TERM_MIN_CHUNKS);
    const commonFrom = `GREATEST(${commonMinChunks}::float8, stats.n * ${add(COMMON_TERM_SHARE)}::float8)`;
    const rarerLimit = `(SELECT ${limitParam} * CASE WHEN count(*) > 0 THEN ${COMMON_TERMS_RESCORED} ELSE 1 END
                         FROM common)`;
    return `
     common AS MATERIALIZED (
       SELECT qt.term, qt.idf FROM qt CROSS JOIN stats
       WHERE qt.df > ${commonFrom} AND EXISTS (SELECT 1 FROM qt rare WHERE rare.df <= ${commonFrom})
     ),
     by_rarer AS MATERIALIZED (
       ${scoredPostings("qt.term NOT IN (SELECT term FROM common)", rarerLimit)}
     ),
     -- Common terms are skipped when the rarer ones found enough chunks; otherwise every term is read.
     skipped AS MATERIALIZED (
       SELECT EXISTS (SELECT 1 FROM common) AND (SELECT count(*) FROM by_rarer) >= ${limitParam} AS yes
     ),
     found AS (
       SELECT chunk_id, bm25 FROM by_rarer WHERE (SELECT yes FROM skipped) OR NOT EXISTS (SELECT 1 FROM common)
       UNION ALL
       SELECT chunk_id, bm25 FROM (${scoredPostings("true", limitParam)}) every_term
       WHERE EXISTS (SELECT 1 FROM common) AND NOT (SELECT yes FROM skipped)
     ),
     lex AS (
       SELECT f.chunk_id, f.bm25 + COALESCE(later.bm25, 0) AS bm25
       FROM found f
       LEFT JOIN LATERAL (
         SELECT sum(${bm25Term}) AS bm25
         FROM common qt
         JOIN chunk_terms p ON p.namespace_id = ${ns} AND p.term = qt.term AND p.chunk_id = f.chunk_id
         CROSS JOIN stats
         WHERE (SELECT yes FROM skipped)
       ) later ON true
       ORDER BY bm25 DESC
       LIMIT ${limitParam}
     )`;
  };
  const skippedBm25MaxSql = `(SELECT CASE WHEN yes THEN (SELECT COALESCE(sum(idf), 0) FROM common) ELSE 0 END
                              FROM skipped)::float8`;
  // A namespace that held no more chunks than a common term needs at its last search here has none.
  const mayHaveCommonTerms =
    (lastChunkCounts.get(request.namespaceId) ?? Infinity) > (request.commonTermMinChunks ?? COMMON_TERM_MIN_CHUNKS);
  const [row] = await queryRows<{
    bm25_max: number;
    skipped_bm25_max: number;
    hits: LexicalHit[];
    scope_keys: string[] | null;
    scope_chunk_count: number | null;
    namespace_chunk_count: number;
  }>(
    `WITH ${statistics},
     ${scoped ? `${selectedScopesSql(request, add)},` : ""}
     ${mayHaveCommonTerms ? commonTermsSql() : `lex AS (${scoredPostings("true", limitParam)})`}
     SELECT (SELECT COALESCE(sum(idf), 0) FROM qt)::float8 AS bm25_max,
            ${mayHaveCommonTerms ? skippedBm25MaxSql : "0::float8"} AS skipped_bm25_max,
            ${namespaceChunkCountSql(ns)} AS namespace_chunk_count,
            ${scoped ? "(SELECT keys FROM selected)" : "NULL"} AS scope_keys,
            ${scoped ? "(SELECT chunk_count FROM selected)" : "NULL"} AS scope_chunk_count,
            COALESCE((SELECT json_agg(json_build_object('chunk_id', lex.chunk_id, 'bm25', lex.bm25,
                        'row', json_build_object(
                          'id', m.id, 'memory_id', m.memory_id, 'content', m.content, 'metadata', m.metadata,
                          'scopes', m.scopes, 'identity_id', m.identity_id, 'session_id', m.session_id,
                          'session_position', m.session_position, 'role', m.role, 'occurred_at', m.occurred_at,
                          'created_at', m.created_at))
                      ORDER BY lex.bm25 DESC)
                      -- Postings do not know expiry: a memory expired but not yet swept (a minute at most)
                      -- is left out here.
                      FROM lex JOIN memory_chunks m ON m.id = lex.chunk_id AND ${notExpiredSql("m")}),
                     '[]'::json) AS hits`,
    ...params,
  );
  lastChunkCounts.delete(request.namespaceId);
  lastChunkCounts.set(request.namespaceId, row.namespace_chunk_count);
  if (lastChunkCounts.size > LAST_CHUNK_COUNTS_KEPT) lastChunkCounts.delete(lastChunkCounts.keys().next().value!);
  for (const hit of row.hits) {
    hit.row.created_at = new Date(hit.row.created_at);
    hit.row.occurred_at = new Date(hit.row.occurred_at);
  }
  const selection = row.scope_keys ? { keys: row.scope_keys, chunkCount: Number(row.scope_chunk_count) } : undefined;
  return {
    bm25Max: row.bm25_max,
    hits: row.hits,
    truncated: row.hits.length >= limit,
    skippedBm25Max: row.skipped_bm25_max,
    selection,
    namespaceChunkCount: row.namespace_chunk_count,
  };
}

export interface VectorHit {
  chunk_id: string;
  memory_id: string;
  session_id: string | null;
  session_position: number | null;
  role: string | null;
  cosine: number;
}

/**
 * The vector leg: the nearest chunks by cosine (pgvector HNSW), filters applied before the limit,
 * and in the same statement the cosines of `alsoChunkIds` (the lexical hits that can rank). Chunks
 * embedded by another model live in another space: they wait for `memgw reembed`, found by words only.
 */
export async function vectorLeg(
  request: SearchRequest,
  selection: ScopeSelection | undefined,
  namespaceChunkCount: number,
  vector: number[],
  limit: number,
  alsoChunkIds: string[],
) {
  const { params, add, filter } = statement(request, selection?.keys);
  // Cast once: a parameter cast inside the expression would parse the vector's text again for every row.
  const vec = "(SELECT v FROM query_vector)";
  const model = `${add(embedder().model)}::text`;
  // Adding zero hides the distance from the HNSW index, so the planner sorts the selected chunks exactly.
  const admitted = Math.min(namespaceChunkCount, selection?.chunkCount ?? Infinity);
  const exact = admitted <= (request.exactVectorScanLimit ?? EXACT_VECTOR_SCAN_LIMIT);
  return queryRows<VectorHit>(
    `WITH query_vector AS MATERIALIZED (SELECT ${add(vectorLiteral(vector))}::vector AS v)
     (SELECT c.id AS chunk_id, c.memory_id, c.session_id, c.session_position, c.role,
             (1 - (c.embedding <=> ${vec}))::float8 AS cosine
      FROM memory_chunks c
      WHERE ${filter()} AND c.embedding_model = ${model}
      ORDER BY ${exact ? `(c.embedding <=> ${vec}) + 0` : `c.embedding <=> ${vec}`}
      LIMIT ${add(limit)})
     UNION ALL
     SELECT c.id, c.memory_id, c.session_id, c.session_position, c.role, (1 - (c.embedding <=> ${vec}))::float8
     FROM memory_chunks c
     WHERE c.id = ANY(${add(alsoChunkIds)}::text[]) AND ${filter()} AND c.embedding_model = ${model}`,
    ...params,
  );
}

/**
 * The conversation turns at the given places (session and position), filters applied, each chunk with
 * its BM25 (`withBm25`; otherwise 0: a lexical leg that was not cut short found every chunk sharing a
 * word) and, given the query vector, its cosine: the neighbours of the best turns that neither leg found,
 * scored as the legs would have scored them.
 */
export async function turnsAt(
  request: SearchRequest,
  selection: ScopeSelection | undefined,
  vector: number[] | undefined,
  places: { sessionId: string; position: number }[],
  withBm25: boolean,
): Promise<(ChunkRow & { bm25: number; cosine: number })[]> {
  const { params, add, filter } = statement(request, selection?.keys);
  // Every parameter bound must be used (an unused one has no type to infer): the BM25 parts only with BM25.
  const scoring = withBm25 ? bm25Sql(request, add) : undefined;
  const ns = scoring?.ns ?? add(request.namespaceId);
  const bm25 = scoring
    ? `COALESCE((SELECT sum(${scoring.bm25Term}) FROM qt
                 JOIN chunk_terms p ON p.namespace_id = ${ns} AND p.term = qt.term AND p.chunk_id = c.id
                 CROSS JOIN stats), 0)`
    : "0";
  const cosine = vector
    ? `CASE WHEN c.embedding_model = ${add(embedder().model)}::text
            THEN (1 - (c.embedding <=> ${add(vectorLiteral(vector))}::vector))::float8 ELSE 0 END`
    : "0";
  const rows = await queryRows<ChunkRow & { bm25: number; cosine: number }>(
    `WITH ${scoring ? `${scoring.statistics},` : ""}
     places AS (SELECT * FROM jsonb_to_recordset(${add(JSON.stringify(places))}::jsonb)
                AS p("sessionId" text, "position" int))
     SELECT ${CHUNK_ROW_COLUMNS}, ${cosine}::float8 AS cosine, ${bm25}::float8 AS bm25
     FROM places pl
     JOIN memory_chunks c ON c.namespace_id = ${ns} AND c.session_id = pl."sessionId"
                         AND c.session_position = pl."position"
     WHERE ${filter()}`,
    ...params,
  );
  return rows;
}

/** Exact BM25 of the given chunks (those with no shared word are left out: their BM25 is 0). */
export async function bm25Of(request: SearchRequest, chunkIds: string[]): Promise<Map<string, number>> {
  const { params, add } = statement(request);
  const { ns, statistics, bm25Term } = bm25Sql(request, add);
  const rows = await queryRows<{ chunk_id: string; bm25: number }>(
    `WITH ${statistics}
     SELECT p.chunk_id, sum(${bm25Term})::float8 AS bm25
     FROM qt
     JOIN chunk_terms p ON p.namespace_id = ${ns} AND p.term = qt.term AND p.chunk_id = ANY(${add(chunkIds)}::text[])
     CROSS JOIN stats
     GROUP BY p.chunk_id`,
    ...params,
  );
  return new Map(rows.map((row) => [row.chunk_id, row.bm25]));
}

export async function chunkRows(
  request: SearchRequest,
  selection: ScopeSelection | undefined,
  chunkIds: string[],
): Promise<Map<string, ChunkRow>> {
  const { params, add, filter } = statement(request, selection?.keys);
  const rows = await queryRows<ChunkRow>(
    `SELECT ${CHUNK_ROW_COLUMNS}
     FROM memory_chunks c WHERE c.id = ANY(${add(chunkIds)}::text[]) AND ${filter()}`,
    ...params,
  );
  return new Map(rows.map((row) => [row.id, row]));
}
