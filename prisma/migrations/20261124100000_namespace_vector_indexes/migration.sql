-- One HNSW index per large namespace instead of one over every tenant's chunks (lib/db/vector-indexes.ts):
-- with the shared graph, a namespace's search walked past other tenants' nearest chunks to find its own, so
-- it cost more as the deployment grew (SciFact, 5,183 memories: p50 14.8 ms alone, 27.8 ms beside 100,000
-- memories of another organization). Namespaces of up to 1,500 chunks (EXACT_VECTOR_SCAN_LIMIT) are scanned
-- exactly and get none; larger ones get theirs here, and any namespace that grows past it later, from the
-- server, in the background.
DROP INDEX IF EXISTS "memory_chunks_embedding_idx";
DO $$
DECLARE
  large record;
BEGIN
  FOR large IN SELECT namespace_id FROM namespace_search_stats WHERE chunk_count > 1500 LOOP
    EXECUTE format(
      'CREATE INDEX %I ON memory_chunks USING hnsw (embedding vector_cosine_ops) WHERE namespace_id = %L',
      'memory_chunks_embedding_' || large.namespace_id,
      large.namespace_id
    );
  END LOOP;
END $$;
