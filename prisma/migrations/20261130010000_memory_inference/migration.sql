-- A chat model's help (lib/memory/inference): a memory is what a caller wrote (kind 'memory') or an atomic fact a
-- chat model extracted from such memories (kind 'fact', derived_from naming them: forgetting a source forgets its
-- facts). `inference` is the extraction job's state on the memories it reads (queued, running, done, failed), NULL
-- for a memory not given to a model. A namespace can have every write go to the model (`infer`).
ALTER TABLE "memories" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'memory',
  ADD COLUMN "derived_from" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
  ADD COLUMN "inference" JSONB,
  ADD CONSTRAINT "memories_kind_check" CHECK ("kind" IN ('memory', 'fact'));

CREATE INDEX "memories_derived_from_idx" ON "memories" USING GIN ("derived_from");

ALTER TABLE "namespaces" ADD COLUMN "infer" BOOLEAN NOT NULL DEFAULT false;
