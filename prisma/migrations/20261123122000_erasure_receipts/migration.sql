-- Erasure receipts (issue 16): one row per deletion request served (a forget, in one namespace or in every
-- namespace the caller may write; a namespace's deletion; an integration's deletion with its memories), written in the deletion's own transaction so
-- that a receipt exists exactly when the deletion happened. What was asked (the selector: never content),
-- how many memories and chunks went, from which namespaces, by whom and when; read back at GET /erasures.
CREATE TABLE "erasures" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    -- "forget", "namespace.delete" or "integration.delete".
    "kind" TEXT NOT NULL,
    -- The one namespace of the request; NULL for a forget across every namespace (all_namespaces).
    "namespace_id" TEXT,
    -- Per namespace touched: {"namespace_id", "name", "memories_deleted", "chunks_deleted"}. No foreign key:
    -- the receipt outlives the namespace (a namespace's deletion is itself on record here).
    "namespaces" JSONB NOT NULL DEFAULT '[]',
    "selector" JSONB NOT NULL DEFAULT '{}',
    "memories_deleted" INTEGER NOT NULL,
    "chunks_deleted" INTEGER NOT NULL,
    -- Who asked, as they were named then (a key's name, a user's email): the receipt outlives them too.
    "actor_kind" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_name" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "erasures_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "erasures_kind_check" CHECK ("kind" IN ('forget', 'namespace.delete', 'integration.delete')),
    CONSTRAINT "erasures_actor_kind_check" CHECK ("actor_kind" IN ('api_key', 'user', 'integration')),
    CONSTRAINT "erasures_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- GET /erasures: an organization's receipts newest first, optionally those of one identity.
CREATE INDEX "erasures_org_id_created_at_idx" ON "erasures"("org_id", "created_at" DESC, "id" DESC);
CREATE INDEX "erasures_org_id_identity_idx" ON "erasures"("org_id", ("selector" ->> 'identity_id'), "created_at" DESC);
