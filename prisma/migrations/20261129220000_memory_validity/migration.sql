-- Validity (lib/memory/validity): when what a memory states started to hold (valid_at, its occurred_at until now)
-- and when it stopped (invalid_at), the memory that replaced it and how, and the caller's name for its slot. Chunks
-- carry copies of the first three and the kind of supersession, as they carry expiry: recall reads them with the
-- match instead of asking again.
ALTER TABLE "memories" ADD COLUMN "valid_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  ADD COLUMN "invalid_at" TIMESTAMPTZ(3),
  ADD COLUMN "superseded_by" TEXT,
  ADD COLUMN "supersession" JSONB,
  ADD COLUMN "fact_key" TEXT;
UPDATE "memories" SET "valid_at" = "occurred_at";

ALTER TABLE "memory_chunks" ADD COLUMN "valid_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  ADD COLUMN "invalid_at" TIMESTAMPTZ(3),
  ADD COLUMN "superseded_by" TEXT,
  ADD COLUMN "supersession_kind" TEXT;
UPDATE "memory_chunks" SET "valid_at" = "occurred_at";

CREATE INDEX "memories_namespace_id_identity_id_fact_key_idx" ON "memories" ("namespace_id", "identity_id", "fact_key")
  WHERE "fact_key" IS NOT NULL;
CREATE INDEX "memories_superseded_by_idx" ON "memories" ("superseded_by") WHERE "superseded_by" IS NOT NULL;
