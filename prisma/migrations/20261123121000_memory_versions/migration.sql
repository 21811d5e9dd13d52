-- Updates with history (issue 16, lib/memory/history.ts): PATCH /memories/{id} (and an integration's sync
-- replacing a document's text) keeps the memory's earlier versions here, each with who wrote it and which
-- fields it changed; the current version stays in "memories", whose new columns say who wrote it. A memory's
-- versions go with it (forget, expiry, namespace deletion): they hold its content.
CREATE TABLE "memory_versions" (
    "memory_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "org_id" TEXT NOT NULL,
    "namespace_id" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "scopes" JSONB NOT NULL DEFAULT '{}',
    "identity_id" TEXT,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    -- Who wrote this version, as they were named then (the key or person may be gone since); NULL kind for a
    -- version written before authors were recorded.
    "author_kind" TEXT,
    "author_id" TEXT,
    "author_name" TEXT,
    -- The fields this version changed against the one before it (empty for the first version).
    "changed_fields" TEXT[] NOT NULL DEFAULT '{}',
    "written_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "memory_versions_pkey" PRIMARY KEY ("memory_id", "version"),
    CONSTRAINT "memory_versions_author_kind_check" CHECK ("author_kind" IN ('api_key', 'user', 'integration')),
    CONSTRAINT "memory_versions_memory_id_fkey" FOREIGN KEY ("memory_id") REFERENCES "memories"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- The current version's author and changed fields. NULL author on a memory no update touched yet: its author is
-- then the key that remembered it (api_key_id) or the integration whose document it is.
ALTER TABLE "memories" ADD COLUMN "version_author_kind" TEXT;
ALTER TABLE "memories" ADD COLUMN "version_author_id" TEXT;
ALTER TABLE "memories" ADD COLUMN "version_author_name" TEXT;
ALTER TABLE "memories" ADD COLUMN "version_changed_fields" TEXT[];
ALTER TABLE "memories" ADD CONSTRAINT "memories_version_author_kind_check"
    CHECK ("version_author_kind" IN ('api_key', 'user', 'integration'));
