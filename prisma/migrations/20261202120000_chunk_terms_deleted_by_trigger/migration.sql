-- A chunk's postings go with it by a statement-level trigger instead of a foreign key (issue 53). The key checked
-- every posting a remember wrote against the chunk written by the same statement (memory_chunks' primary key, once
-- for each of a chunk's ~30 terms): 15% of the statement that indexes a batch of chunks on the embedded database.
-- Postings are written only by lib/memory/store/search-index.ts, with their chunk in one statement or for chunks it
-- holds locked, so none can point at a missing chunk. Deleting chunks, directly or by the cascades from memories,
-- namespaces and organizations, deletes their postings in one statement rather than one per chunk.
ALTER TABLE "chunk_terms" DROP CONSTRAINT "chunk_terms_chunk_id_fkey";

CREATE FUNCTION "chunk_terms_chunks_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "chunk_terms" p USING old_rows c WHERE p."chunk_id" = c."id";
  RETURN NULL;
END $$;

CREATE TRIGGER "chunk_terms_chunks_removed" AFTER DELETE ON "memory_chunks"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "chunk_terms_chunks_removed"();
