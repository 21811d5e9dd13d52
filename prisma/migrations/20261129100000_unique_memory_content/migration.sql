-- Deduplication of remember is enforced by the database: a memory stored under deduplication holds its place
-- (unique_content), and no second one with the same content, identity and scopes in the namespace can hold it.
-- A remember that loses the race to another finds the winner and answers with it (lib/memory/remember.ts).
-- Memories stored with allow_duplicate, imported, a conversation's turns and memories set to expire never hold
-- it; an update changing the content, identity, scopes or expiry gives it up (lib/memory/update-memory.ts).
ALTER TABLE "memories" ADD COLUMN "unique_content" BOOLEAN NOT NULL DEFAULT false;

-- Duplicates stored before (by requests that raced) are all kept: which of them were asked for with
-- allow_duplicate is not recorded, and each may have its own history, links and events. The oldest holds the
-- place: it is the one deduplication has always answered with.
UPDATE "memories" m SET "unique_content" = true
FROM (
  SELECT DISTINCT ON ("namespace_id", "content_hash", "scopes", "identity_id") "id"
  FROM "memories"
  WHERE "content_hash" IS NOT NULL AND "session_id" IS NULL AND "expires_at" IS NULL
  ORDER BY "namespace_id", "content_hash", "scopes", "identity_id", "created_at", "id"
) oldest
WHERE m."id" = oldest."id";

-- Scopes by their digest (jsonb's text is canonical: equal scopes, equal text), as up to 16 pairs of 319
-- characters would not fit a btree entry; no identity as '' (an identity_id has at least one character).
CREATE UNIQUE INDEX "memories_unique_content_key" ON "memories"
  ("namespace_id", "content_hash", md5("scopes"::text), COALESCE("identity_id", ''))
  WHERE "unique_content";
