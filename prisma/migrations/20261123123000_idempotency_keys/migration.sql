-- Idempotency-Key records (lib/http/idempotency.ts): one per (organization, API key, hashed key value). A row
-- is a claim while its request runs (claim_token, the process holding it, a lease in locked_until), then the
-- first response (encrypted: it may hold memory content), kept 24 hours from created_at.
CREATE TABLE "idempotency_keys" (
    "org_id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "claim_token" TEXT NOT NULL,
    "process_id" TEXT NOT NULL,
    "locked_until" TIMESTAMPTZ(3),
    "response_status" INTEGER,
    "response_encrypted" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    -- The memories the kept answer shows: forgetting one of them withdraws the answer (no copy outlives erasure).
    "memory_ids" TEXT[] NOT NULL DEFAULT '{}',
    -- Set (and the answer cleared) when one of those memories is deleted: the retry is refused, not redone.
    "withdrawn_at" TIMESTAMPTZ(3),
    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("org_id", "api_key_id", "key_hash"),
    CONSTRAINT "idempotency_keys_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "idempotency_keys_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");
CREATE INDEX "idempotency_keys_api_key_id_idx" ON "idempotency_keys"("api_key_id");
CREATE INDEX "idempotency_keys_memory_ids_idx" ON "idempotency_keys" USING GIN ("memory_ids");
