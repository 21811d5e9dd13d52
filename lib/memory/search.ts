import { db } from "@/lib/db";
import type { Scopes } from "@/lib/auth/scopes";
import { embedder } from "./embeddings";
import type { Metadata } from "./schemas";
import { memoryFilterSql, TEXT_SEARCH_CONFIG, vectorLiteral } from "./sql";

/** BM25 parameters (Robertson/Lucene defaults). */
export const BM25 = { k1: 1.2, b: 0.75 };

/** Scale of memories sharing no meaningful word with the query while others do: ranked after those, by similarity. */
export const SEMANTIC_ONLY_SCALE = 0.05;

/**
 * The fused score, chosen by measurement (`npm run bench`, docs/benchmarks.md; SciFact and MS MARCO
 * with the local USE-lite embedder): lexical evidence decides and similarity boosts it,
 * `lexical · (1 + cosine) / 2`, which beat every linear mix `w · lexical + (1 − w) · cosine` on both
 * sets. Memories without lexical evidence follow by similarity; when no candidate has any (a pure
 * paraphrase, or a query of stop words only) similarity alone is the score.
 */
export function fuseScores(lexical: number, cosine: number, anyLexical: boolean): number {
  const similarity = Math.max(0, Math.min(1, cosine));
  if (!anyLexical) return similarity;
  return lexical > 0 ? (lexical * (1 + similarity)) / 2 : SEMANTIC_ONLY_SCALE * similarity;
}

export type SearchMode = "hybrid" | "vector" | "fulltext";

export interface SearchRequest {
  orgId: string;
  namespaceId: string;
  query: string;
  topK: number;
  minScore?: number;
  scopes?: Scopes;
  identityId?: string;
  metadata?: Metadata;
  mode?: SearchMode;
  /** The query's embedding, when the caller already has it or has started it; otherwise it is computed. */
  queryVector?: number[] | Promise<number[]>;
  /** Overrides of the BM25 parameters, for measuring them (bench/). */
  bm25?: { k1: number; b: number };
}

export interface ScoredChunk {
  chunkId: string;
  memoryId: string;
  content: string;
  metadata: Record<string, unknown>;
  scopes: Record<string, string>;
  identityId: string | null;
  createdAt: Date;
  score: number;
  bm25: number;
  cosine: number;
}

interface Row {
  id: string;
  memory_id: string;
  content: string;
  metadata: Record<string, unknown>;
  scopes: Record<string, string>;
  identity_id: string | null;
  created_at: Date;
  bm25: number;
  cosine: number;
}

interface LexicalResult {
  bm25Max: number;
  hits: { chunk_id: string; bm25: number }[];
}

/** Builds the shared pieces of both statements: parameters, the filter, and the BM25 statistics CTEs. */
function searchSql(request: SearchRequest) {
  const params: unknown[] = [];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const ns = add(request.namespaceId);
  const query = add(request.query);
  const k1 = add(request.bm25?.k1 ?? BM25.k1);
  const b = add(request.bm25?.b ?? BM25.b);
  // Binds its parameters only when a statement uses it: an unused parameter has no type to infer.
  const filter = () =>
    memoryFilterSql(
      { orgId: request.orgId, namespaceId: request.namespaceId, scopes: request.scopes, identityId: request.identityId, metadata: request.metadata },
      params,
    );
  // Postings carry their namespace (resolved within the caller's organization), so without a scope,
  // identity or metadata filter the lexical leg never needs to touch the wide chunk rows.
  const filtered = Boolean(
    (request.scopes && Object.keys(request.scopes).length) || request.identityId !== undefined || (request.metadata && Object.keys(request.metadata).length),
  );
  const statistics = `stats AS (
       SELECT n, ${k1}::float8 * (1 - ${b}::float8) AS k1_a, ${k1}::float8 * ${b}::float8 / avg_terms AS k1_b
       FROM (SELECT COALESCE(max(chunk_count), 0)::float8 AS n,
                    GREATEST(COALESCE(max(total_terms)::float8 / NULLIF(max(chunk_count), 0), 1), 1) AS avg_terms
             FROM namespace_search_stats WHERE namespace_id = ${ns}) s
     ),
     -- Every meaningful query term counts toward the best possible score, also one no chunk has.
     -- idf carries the (k1 + 1) factor of BM25.
     qt AS MATERIALIZED (
       SELECT q.lexeme AS term,
              (${k1}::float8 + 1) * ln(1 + (stats.n - COALESCE(t.df, 0)::float8 + 0.5) / (COALESCE(t.df, 0)::float8 + 0.5)) AS idf
       FROM (SELECT DISTINCT lexeme FROM unnest(to_tsvector('${TEXT_SEARCH_CONFIG}', ${query}))) q
       CROSS JOIN stats
       LEFT JOIN namespace_terms t ON t.namespace_id = ${ns} AND t.term = q.lexeme
     )`;
  // BM25 of one posting, in float8 throughout (numeric arithmetic on every posting was the slow part).
  const bm25Term = `qt.idf * p.tf / (p.tf + stats.k1_a + stats.k1_b * p.term_count)`;
  return { params, add, ns, filter, filtered, statistics, bm25Term };
}

/** The lexical leg: the best chunks by BM25, filters applied before the limit. */
async function lexicalLeg(request: SearchRequest, limit: number): Promise<LexicalResult> {
  const { params, add, ns, filter, filtered, statistics, bm25Term } = searchSql(request);
  const [row] = await (await db()).$queryRawUnsafe<{ bm25_max: number; hits: LexicalResult["hits"] }[]>(
    `WITH ${statistics},
     lex AS (
       SELECT p.chunk_id, sum(${bm25Term}) AS bm25
       FROM qt
       JOIN chunk_terms p ON p.namespace_id = ${ns} AND p.term = qt.term
       ${filtered ? `JOIN memory_chunks c ON c.id = p.chunk_id AND ${filter()}` : ""}
       CROSS JOIN stats
       GROUP BY p.chunk_id
       ORDER BY bm25 DESC
       LIMIT ${add(limit)}
     )
     SELECT (SELECT COALESCE(sum(idf), 0) FROM qt)::float8 AS bm25_max,
            COALESCE((SELECT json_agg(json_build_object('chunk_id', chunk_id, 'bm25', bm25)) FROM lex), '[]'::json) AS hits`,
    ...params,
  );
  return { bm25Max: row.bm25_max, hits: row.hits };
}

/**
 * Best chunks for a query, one per memory, best first. The lexical leg (BM25 over the namespace's
 * postings) runs while the query is being embedded; then the vector leg (pgvector cosine) runs and the
 * candidates of both are scored on both signals and fused. Every filter applies inside the SQL, before
 * each leg's limit.
 */
export async function searchChunks(request: SearchRequest): Promise<ScoredChunk[]> {
  const mode = request.mode ?? "hybrid";
  const provider = embedder();
  const pendingVector =
    mode === "fulltext" ? undefined : Promise.resolve(request.queryVector ?? provider.embed([request.query], "query").then(([v]) => v));
  pendingVector?.catch(() => undefined); // awaited below; an early failure must not go unhandled meanwhile
  // Enough candidates per leg that fusion can reorder them, and several chunks of one memory still leave topK memories.
  const candidates = Math.max(50, request.topK * 2);
  const lexical: LexicalResult = mode === "vector" ? { bm25Max: 0, hits: [] } : await lexicalLeg(request, candidates);
  const vector = await pendingVector;

  const { params, add, ns, filter, statistics, bm25Term } = searchSql(request);
  const where = filter();
  const lex = `${add(JSON.stringify(lexical.hits))}::jsonb`;
  const vec = vector ? `${add(vectorLiteral(vector))}::vector` : "NULL::vector";
  // Vectors of another model live in another space: such chunks wait for `memgw reembed`, found by words only.
  const model = vector ? `${add(provider.model)}::text` : "NULL::text";
  const rows = await (await db()).$queryRawUnsafe<Row[]>(
    `WITH ${statistics},
     lex AS (SELECT * FROM jsonb_to_recordset(${lex}) AS l(chunk_id text, bm25 float8)),
     vec AS (
       SELECT c.id AS chunk_id FROM memory_chunks c
       WHERE ${vector ? `${where} AND c.embedding_model = ${model}` : "false"}
       ORDER BY c.embedding <=> ${vec}
       LIMIT ${add(candidates)}
     ),
     candidates AS (SELECT chunk_id FROM lex UNION SELECT chunk_id FROM vec)
     SELECT c.id, c.memory_id, c.content, c.metadata, c.scopes, c.identity_id, c.created_at,
            COALESCE(lex.bm25, (SELECT sum(${bm25Term}) FROM qt JOIN chunk_terms p ON p.namespace_id = ${ns} AND p.term = qt.term AND p.chunk_id = c.id CROSS JOIN stats), 0)::float8 AS bm25,
            ${vector ? `CASE WHEN c.embedding_model = ${model} THEN (1 - (c.embedding <=> ${vec}))::float8 ELSE 0 END` : "0::float8"} AS cosine
     FROM candidates JOIN memory_chunks c ON c.id = candidates.chunk_id
     LEFT JOIN lex ON lex.chunk_id = c.id
     WHERE ${where}`,
    ...params,
  );

  const best = new Map<string, ScoredChunk>();
  const anyLexical = rows.some((row) => row.bm25 > 0);
  for (const row of rows) {
    const lexicalScore = lexical.bm25Max > 0 ? row.bm25 / lexical.bm25Max : 0;
    const score =
      mode === "fulltext" ? lexicalScore : mode === "vector" ? Math.max(0, row.cosine) : fuseScores(lexicalScore, row.cosine, anyLexical);
    const scored: ScoredChunk = {
      chunkId: row.id,
      memoryId: row.memory_id,
      content: row.content,
      metadata: row.metadata,
      scopes: row.scopes,
      identityId: row.identity_id,
      createdAt: row.created_at,
      score: Math.max(0, Math.min(1, score)),
      bm25: row.bm25,
      cosine: row.cosine,
    };
    const previous = best.get(row.memory_id);
    if (!previous || previous.score < scored.score) best.set(row.memory_id, scored);
  }
  return [...best.values()]
    .filter((chunk) => (mode !== "fulltext" || chunk.bm25 > 0) && chunk.score >= (request.minScore ?? 0))
    .sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId))
    .slice(0, request.topK);
}
