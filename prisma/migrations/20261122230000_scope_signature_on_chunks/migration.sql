-- The scope signature (md5 of the chunk's canonical scopes jsonb, as in scope_search_stats; NULL for a
-- chunk without scopes) on each chunk and each of its postings. A recall filtered by scopes resolves
-- the signatures that carry the requested pairs once (scope_search_stats holds a few rows per
-- namespace) and then filters postings by signature inside the index, without reading the chunk rows,
-- and can scan a small signature set's vectors exactly instead of walking the shared HNSW graph.
ALTER TABLE "memory_chunks" ADD COLUMN "scope_key" TEXT;
ALTER TABLE "chunk_terms" ADD COLUMN "scope_key" TEXT;

UPDATE "memory_chunks" SET "scope_key" = md5("scopes"::text) WHERE "scopes" <> '{}'::jsonb;
UPDATE "chunk_terms" p SET "scope_key" = c."scope_key"
FROM "memory_chunks" c
WHERE c."id" = p."chunk_id" AND c."scope_key" IS NOT NULL;

-- The signature rides in the postings index, so the lexical leg stays an index-only scan.
ALTER TABLE "chunk_terms" DROP CONSTRAINT "chunk_terms_pkey";
ALTER TABLE "chunk_terms" ADD CONSTRAINT "chunk_terms_pkey"
  PRIMARY KEY ("namespace_id", "term", "chunk_id") INCLUDE ("tf", "term_count", "scope_key");

CREATE INDEX "memory_chunks_namespace_id_scope_key_idx" ON "memory_chunks"("namespace_id", "scope_key");
