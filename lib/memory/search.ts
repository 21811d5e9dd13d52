import { db } from "@/lib/db";
import type { Scopes } from "@/lib/auth/scopes";
import { embedder } from "./embeddings";
import type { Metadata } from "./schemas";
import { memoryFilterSql, TEXT_SEARCH_CONFIG, vectorLiteral } from "./sql";

/** BM25 parameters (Robertson/Lucene defaults). */
export const BM25 = { k1: 1.2, b: 0.75 };

/**
 * Weight of the lexical leg in the fused score `w · BM25/BM25max + (1 − w) · cosine`, measured with
 * `npm run bench` on SciFact and MS MARCO with the local USE-lite embedder (docs/benchmarks.md).
 */
export const LEXICAL_WEIGHT = Number(process.env.RECALL_LEXICAL_WEIGHT || 0.75);

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
  /** The query's embedding, when the caller already has it (the benchmark); otherwise it is computed. */
  queryVector?: number[];
  lexicalWeight?: number;
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
  bm25_max: number;
  cosine: number;
}

/**
 * Best chunks for a query, one per memory, best first. Both legs — BM25 over the namespace's postings
 * and pgvector cosine — apply every filter inside their SQL, before their LIMIT; their candidates are
 * then scored on both signals and fused.
 */
export async function searchChunks(request: SearchRequest): Promise<ScoredChunk[]> {
  const mode = request.mode ?? "hybrid";
  const weight = request.lexicalWeight ?? LEXICAL_WEIGHT;
  const provider = embedder();
  const vector = mode === "fulltext" ? undefined : (request.queryVector ?? (await provider.embed([request.query], "query"))[0]);
  // Enough candidates per leg that fusion can reorder them, and several chunks of one memory still leave topK memories.
  const candidates = Math.max(50, request.topK * 2);

  const params: unknown[] = [];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const ns = add(request.namespaceId);
  const query = add(request.query);
  const vec = vector ? `${add(vectorLiteral(vector))}::vector` : "NULL::vector";
  // Vectors of another model live in another space: such chunks wait for `memgw reembed`, found by words only.
  const model = add(provider.model);
  const limit = add(candidates);
  const filter = memoryFilterSql(
    { orgId: request.orgId, namespaceId: request.namespaceId, scopes: request.scopes, identityId: request.identityId, metadata: request.metadata },
    params,
  );
  const bm25Term = `qt.idf * p.tf * ${BM25.k1 + 1} / (p.tf + ${BM25.k1} * (1 - ${BM25.b} + ${BM25.b} * p.term_count / stats.avg_terms))`;

  const legs: string[] = [];
  if (mode !== "vector") legs.push("SELECT chunk_id FROM lex");
  if (mode !== "fulltext") legs.push("SELECT chunk_id FROM vec");

  const rows = await (await db()).$queryRawUnsafe<Row[]>(
    `WITH stats AS (
       SELECT COALESCE(max(chunk_count), 0)::float8 AS n,
              GREATEST(COALESCE(max(total_terms)::float8 / NULLIF(max(chunk_count), 0), 1), 1) AS avg_terms
       FROM namespace_search_stats WHERE namespace_id = ${ns}
     ),
     -- Every meaningful query term counts toward the best possible score, also one no chunk has.
     qt AS (
       SELECT q.lexeme AS term, ln(1 + (stats.n - COALESCE(t.df, 0) + 0.5) / (COALESCE(t.df, 0) + 0.5)) AS idf
       FROM (SELECT DISTINCT lexeme FROM unnest(to_tsvector('${TEXT_SEARCH_CONFIG}', ${query}))) q
       CROSS JOIN stats
       LEFT JOIN namespace_terms t ON t.namespace_id = ${ns} AND t.term = q.lexeme
     ),
     lex AS (
       SELECT p.chunk_id, sum(${bm25Term}) AS bm25
       FROM qt
       JOIN chunk_terms p ON p.namespace_id = ${ns} AND p.term = qt.term
       JOIN memory_chunks c ON c.id = p.chunk_id
       CROSS JOIN stats
       WHERE ${mode === "vector" ? "false" : filter}
       GROUP BY p.chunk_id
       ORDER BY bm25 DESC
       LIMIT ${limit}
     ),
     vec AS (
       SELECT c.id AS chunk_id FROM memory_chunks c
       WHERE ${mode === "fulltext" ? "false" : `${filter} AND c.embedding_model = ${model}`}
       ORDER BY c.embedding <=> ${vec}
       LIMIT ${limit}
     ),
     candidates AS (${legs.join(" UNION ")})
     SELECT c.id, c.memory_id, c.content, c.metadata, c.scopes, c.identity_id, c.created_at,
            COALESCE(lex.bm25, (SELECT sum(${bm25Term}) FROM qt JOIN chunk_terms p ON p.namespace_id = ${ns} AND p.term = qt.term AND p.chunk_id = c.id CROSS JOIN stats), 0)::float8 AS bm25,
            (SELECT COALESCE(sum(idf), 0) FROM qt)::float8 * ${BM25.k1 + 1} AS bm25_max,
            ${vector ? `CASE WHEN c.embedding_model = ${model} THEN (1 - (c.embedding <=> ${vec}))::float8 ELSE 0 END` : "0::float8"} AS cosine
     FROM candidates JOIN memory_chunks c ON c.id = candidates.chunk_id
     LEFT JOIN lex ON lex.chunk_id = c.id`,
    ...params,
  );

  const best = new Map<string, ScoredChunk>();
  for (const row of rows) {
    const lexical = row.bm25_max > 0 ? row.bm25 / row.bm25_max : 0;
    const cosine = Math.max(0, Math.min(1, row.cosine));
    const score =
      mode === "fulltext" ? lexical : mode === "vector" || row.bm25_max === 0 ? cosine : weight * lexical + (1 - weight) * cosine;
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
