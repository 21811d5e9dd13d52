-- The highest generation of a document's original that a writer has claimed (lib/memory/document-originals.ts,
-- replaceOriginal): a refresh takes the next one in the same statement that counts it, before writing a part,
-- so two refreshes of one document (a job run again after its lease expired while the first still runs) never
-- write into one generation. Existing documents start past every generation they have parts of, a crashed
-- refresh's leftovers included, so no claim lands on parts already written.
ALTER TABLE "documents" ADD COLUMN "parts_generation_claimed" INTEGER NOT NULL DEFAULT 0;

UPDATE "documents" d SET "parts_generation_claimed" = GREATEST(
  d."parts_generation",
  COALESCE((SELECT max(p."generation") FROM "document_parts" p WHERE p."document_id" = d."id" AND p."org_id" = d."org_id"), 0)
);
