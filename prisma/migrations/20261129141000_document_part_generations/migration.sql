-- A document's original has generations (lib/memory/document-originals.ts): a URL document's refresh writes the
-- new answer's parts as the next generation, then switches the document to it, then deletes the old one, so a
-- download reads the one generation it started with (or fails once that is gone), never old and new parts mixed.
ALTER TABLE "document_parts" ADD COLUMN "generation" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "documents" ADD COLUMN "parts_generation" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "document_parts" DROP CONSTRAINT "document_parts_pkey";
ALTER TABLE "document_parts" ADD CONSTRAINT "document_parts_pkey" PRIMARY KEY ("document_id", "generation", "position");
