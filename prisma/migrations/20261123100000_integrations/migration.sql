-- Integrations (lib/integrations): organizations' own OAuth clients, connections of a namespace to a provider,
-- the documents each connection synced, and the durable job queue their syncs run on (lib/jobs).
CREATE TABLE "integration_clients" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_encrypted" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "integration_clients_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "integration_clients_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "integration_clients_org_id_provider_key" ON "integration_clients"("org_id", "provider");

CREATE TABLE "integration_connections" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "namespace_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "options" JSONB NOT NULL DEFAULT '{}',
    "redirect_uri" TEXT NOT NULL,
    "state_hash" TEXT,
    "state_expires_at" TIMESTAMPTZ(3),
    "code_verifier_encrypted" TEXT,
    "access_token_encrypted" TEXT,
    "refresh_token_encrypted" TEXT,
    "token_expires_at" TIMESTAMPTZ(3),
    "account" TEXT,
    "last_sync_at" TIMESTAMPTZ(3),
    "document_count" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_by_user_id" TEXT,
    "created_by_key_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "integration_connections_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "integration_connections_status_check"
        CHECK ("status" IN ('pending', 'active', 'syncing', 'error', 'revoked')),
    CONSTRAINT "integration_connections_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "integration_connections_namespace_id_fkey" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "integration_connections_state_hash_key" ON "integration_connections"("state_hash");
CREATE INDEX "integration_connections_org_id_created_at_idx" ON "integration_connections"("org_id", "created_at");
CREATE INDEX "integration_connections_namespace_id_idx" ON "integration_connections"("namespace_id");

CREATE TABLE "integration_documents" (
    "connection_id" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "memory_id" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "synced_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "integration_documents_pkey" PRIMARY KEY ("connection_id", "source_id"),
    CONSTRAINT "integration_documents_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "integration_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "integration_documents_memory_id_idx" ON "integration_documents"("memory_id");

CREATE TABLE "jobs" (
    "id" TEXT NOT NULL,
    "org_id" TEXT,
    "kind" TEXT NOT NULL,
    "key" TEXT,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "run_after" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 5,
    "locked_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "jobs_status_check" CHECK ("status" IN ('queued', 'running', 'done', 'failed'))
);
CREATE INDEX "jobs_status_run_after_idx" ON "jobs"("status", "run_after");
-- Not in prisma/schema.prisma (Prisma has no partial indexes): one queued or running job per key, so that a
-- connection never has two syncs at once, whichever instance queued them.
CREATE UNIQUE INDEX "jobs_active_key_key" ON "jobs"("key") WHERE "status" IN ('queued', 'running');
