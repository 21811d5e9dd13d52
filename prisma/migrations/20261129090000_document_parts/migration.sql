-- A document's original in parts of at most 512 KiB (lib/memory/document-originals.ts): written and read one short
-- statement at a time, so a 50 MB upload or download never holds the database (the embedded one runs one
-- statement at a time) and is never whole in the server's memory. An upload's parts are written before its
-- document row, which appears only once they are all in; parts without a document (an upload that failed or
-- was cut short by a crash) are swept an hour later.
CREATE TABLE "document_parts" (
    "document_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "document_parts_pkey" PRIMARY KEY ("document_id", "position")
);

-- Originals are mostly compressed already (PDF, DOCX, images): no CPU spent trying again.
ALTER TABLE "document_parts" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;

-- The sweep of parts left without a document looks at the oldest first parts.
CREATE INDEX "document_parts_created_at_idx" ON "document_parts"("created_at") WHERE "position" = 0;

-- Whatever deletes a document (its route, an erasure, its namespace's or organization's deletion by cascade)
-- deletes its original with it: parts have no foreign key, since they are written before their document.
CREATE FUNCTION "delete_document_parts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "document_parts" WHERE "document_id" = OLD."id";
  RETURN OLD;
END
$$;
CREATE TRIGGER "documents_delete_parts" AFTER DELETE ON "documents"
  FOR EACH ROW EXECUTE FUNCTION "delete_document_parts"();

-- The originals stored so far, cut into parts.
INSERT INTO "document_parts" ("document_id", "org_id", "position", "bytes")
SELECT d."id", d."org_id", p."position", substring(d."original" FROM p."position" * 524288 + 1 FOR 524288)
FROM "documents" d, generate_series(0, (length(d."original") - 1) / 524288) AS p("position")
WHERE d."original" IS NOT NULL AND length(d."original") > 0;

ALTER TABLE "documents" DROP COLUMN "original";
