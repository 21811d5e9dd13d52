-- BM25 statistics per scope signature: the exact scopes object a chunk carries, keyed by the md5 of its
-- canonical jsonb text. A key with scopes is scored with the statistics of the signatures containing its
-- scope pairs (what it may see), so the scores it gets reveal nothing about other scopes' memories.
-- Chunks without scopes have no row here: no key with scopes sees them, and keys without scopes use the
-- namespace-wide namespace_terms and namespace_search_stats.
CREATE TABLE "scope_search_stats" (
    "namespace_id" TEXT NOT NULL,
    "scope_key" TEXT NOT NULL,
    "scopes" JSONB NOT NULL,
    "chunk_count" INTEGER NOT NULL DEFAULT 0,
    "total_terms" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "scope_search_stats_pkey" PRIMARY KEY ("namespace_id", "scope_key")
);

CREATE TABLE "scope_terms" (
    "namespace_id" TEXT NOT NULL,
    "scope_key" TEXT NOT NULL,
    "term" TEXT NOT NULL,
    "df" INTEGER NOT NULL,
    CONSTRAINT "scope_terms_pkey" PRIMARY KEY ("namespace_id", "scope_key", "term")
);

ALTER TABLE "scope_search_stats" ADD CONSTRAINT "scope_search_stats_namespace_id_fkey" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "scope_terms" ADD CONSTRAINT "scope_terms_namespace_id_fkey" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill from the chunks and postings already stored.
INSERT INTO "scope_search_stats" ("namespace_id", "scope_key", "scopes", "chunk_count", "total_terms")
SELECT "namespace_id", md5("scopes"::text), "scopes", count(*), COALESCE(sum("term_count"), 0)
FROM "memory_chunks"
WHERE "scopes" <> '{}'::jsonb
GROUP BY "namespace_id", "scopes";

INSERT INTO "scope_terms" ("namespace_id", "scope_key", "term", "df")
SELECT p."namespace_id", md5(c."scopes"::text), p."term", count(*)
FROM "chunk_terms" p JOIN "memory_chunks" c ON c."id" = p."chunk_id"
WHERE c."scopes" <> '{}'::jsonb
GROUP BY p."namespace_id", c."scopes", p."term";
