-- Issue 16: conversations (a turn's session, its position there and who said it), event time kept apart from
-- the time of storage, expiry, a version number for updates with history, and a content hash for deduplication.
-- Chunks carry copies of the fields search filters on, so that every filter stays inside the chunk statements.
ALTER TABLE "memories" ADD COLUMN "session_id" TEXT;
ALTER TABLE "memories" ADD COLUMN "session_position" INTEGER;
ALTER TABLE "memories" ADD COLUMN "role" TEXT;
ALTER TABLE "memories" ADD COLUMN "occurred_at" TIMESTAMPTZ(3);
UPDATE "memories" SET "occurred_at" = "created_at";
ALTER TABLE "memories" ALTER COLUMN "occurred_at" SET NOT NULL;
ALTER TABLE "memories" ALTER COLUMN "occurred_at" SET DEFAULT now();
ALTER TABLE "memories" ADD COLUMN "expires_at" TIMESTAMPTZ(3);
ALTER TABLE "memories" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "memories" ADD COLUMN "content_hash" TEXT;

ALTER TABLE "memory_chunks" ADD COLUMN "session_id" TEXT;
ALTER TABLE "memory_chunks" ADD COLUMN "session_position" INTEGER;
ALTER TABLE "memory_chunks" ADD COLUMN "role" TEXT;
ALTER TABLE "memory_chunks" ADD COLUMN "occurred_at" TIMESTAMPTZ(3);
UPDATE "memory_chunks" c SET "occurred_at" = m."occurred_at" FROM "memories" m WHERE m."id" = c."memory_id";
ALTER TABLE "memory_chunks" ALTER COLUMN "occurred_at" SET NOT NULL;
ALTER TABLE "memory_chunks" ALTER COLUMN "occurred_at" SET DEFAULT now();
ALTER TABLE "memory_chunks" ADD COLUMN "expires_at" TIMESTAMPTZ(3);

-- A session's turns in order (appending reads the last position; context reads the neighbours).
CREATE INDEX "memories_namespace_id_session_id_session_position_idx"
    ON "memories" ("namespace_id", "session_id", "session_position") WHERE "session_id" IS NOT NULL;
CREATE INDEX "memory_chunks_namespace_id_session_id_session_position_idx"
    ON "memory_chunks" ("namespace_id", "session_id", "session_position") WHERE "session_id" IS NOT NULL;
CREATE INDEX "memories_namespace_id_content_hash_idx" ON "memories" ("namespace_id", "content_hash");
-- The expiry sweep's work list.
CREATE INDEX "memories_expires_at_idx" ON "memories" ("expires_at") WHERE "expires_at" IS NOT NULL;

-- The next position of each conversation: appending reserves its positions here in one statement, so two
-- requests appending to one session at once get distinct, consecutive ranges.
CREATE TABLE "conversation_sessions" (
    "namespace_id" TEXT NOT NULL REFERENCES "namespaces"("id") ON DELETE CASCADE,
    "session_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
    "next_position" INTEGER NOT NULL,
    PRIMARY KEY ("namespace_id", "session_id")
);
