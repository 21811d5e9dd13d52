import { queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { embedder } from "../embeddings";
import { chunkFilter, type ScopeSelection, type SearchRequest } from "./search-legs";
import { vectorLiteral } from "../common/sql";

/**
 * Up to this many chunks, a namespace's (or a scope filter's) vectors are compared exactly; past it, a
 * namespace has an HNSW index of its own (lib/namespaces/vector-indexes.ts), so that neither the cost nor the
 * results of its search depend on what other tenants hold. Measured on PGlite through lib/ (SciFact,
 * vector search alone): the namespace's index answers 289 chunks as fast as the exact scan, 573 chunks
 * 0.8 ms faster, 1,149 chunks 2 ms faster, with the same ten nearest (99.4% to 100%); below 500 an index
 * would save little and cost the planner one more partial index to consider on every search.
 */
export const EXACT_VECTOR_SCAN_LIMIT = 500;

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
  const filter = chunkFilter(request, selection?.keys);
  // Cast once: a parameter cast inside the expression would parse the vector's text again for every row.
  const vec = Prisma.sql`(SELECT v FROM query_vector)`;
  const model = Prisma.sql`${embedder().model}::text`;
  // Adding zero hides the distance from the HNSW index, so the planner sorts the selected chunks exactly.
  const admitted = Math.min(namespaceChunkCount, selection?.chunkCount ?? Infinity);
  const exact = admitted <= (request.exactVectorScanLimit ?? EXACT_VECTOR_SCAN_LIMIT);
  return queryRows<VectorHit>(
    Prisma.sql`WITH query_vector AS MATERIALIZED (SELECT ${vectorLiteral(vector)}::vector AS v)
     (SELECT c.id AS chunk_id, c.memory_id, c.session_id, c.session_position, c.role,
             (1 - (c.embedding <=> ${vec}))::float8 AS cosine
      FROM memory_chunks c
      WHERE ${filter} AND c.embedding_model = ${model}
      ORDER BY ${exact ? Prisma.sql`(c.embedding <=> ${vec}) + 0` : Prisma.sql`c.embedding <=> ${vec}`}
      LIMIT ${limit})
     UNION ALL
     SELECT c.id, c.memory_id, c.session_id, c.session_position, c.role, (1 - (c.embedding <=> ${vec}))::float8
     FROM memory_chunks c
     WHERE c.id = ANY(${alsoChunkIds}::text[]) AND ${filter} AND c.embedding_model = ${model}`,
  );
}
