import { queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { namespaceIdLiteral } from "@/lib/namespaces/vector-indexes";
import { embedder } from "../embeddings";
import { chunkFilter, type ScopeSelection, type SearchRequest } from "./search-legs";
import { vectorParameter } from "../common/sql";

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
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`A vector leg's limit is a positive integer, not ${limit}.`);
  // The namespace's index is partial on its id: a kept statement's generic plan can use it only when the text
  // names the namespace and the limit (a parameter would leave the planner guessing how many rows it reads). With
  // a parameter, the database planned the statement afresh on every recall: 1.2 to 1.9 ms of the embedded
  // database's thread, a fifth of what a recall cost it.
  const ordered = exact
    ? Prisma.sql`ORDER BY (c.embedding <=> ${vec}) + 0 LIMIT ${limit}`
    : Prisma.sql`AND c.namespace_id = ${namespaceIdLiteral(request.namespaceId)}
      ORDER BY c.embedding <=> ${vec} LIMIT ${Prisma.raw(String(limit))}`;
  return queryRows<VectorHit>(
    Prisma.sql`WITH query_vector AS MATERIALIZED (SELECT ${vectorParameter(vector)}::vector AS v)
     (SELECT c.id AS chunk_id, c.memory_id, c.session_id, c.session_position, c.role,
             (1 - (c.embedding <=> ${vec}))::float8 AS cosine
      FROM memory_chunks c
      WHERE ${filter} AND c.embedding_model = ${model}
      ${ordered})
     UNION ALL
     SELECT c.id, c.memory_id, c.session_id, c.session_position, c.role, (1 - (c.embedding <=> ${vec}))::float8
     FROM memory_chunks c
     WHERE c.id = ANY(${alsoChunkIds}::text[]) AND ${filter} AND c.embedding_model = ${model}`,
    { perNamespaceText: !exact },
  );
}
