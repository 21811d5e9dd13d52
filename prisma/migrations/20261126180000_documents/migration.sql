-- Issue 34: documents (PDF, DOCX, HTML, Markdown, text, images, web pages) given to POST /documents, kept with
-- their original bytes and extracted text; each passage is a memory of the namespace that names its document.
CREATE TABLE "documents" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "namespace_id" TEXT NOT NULL,
    "identity_id" TEXT,
    "api_key_id" TEXT,
    "created_by_user_id" TEXT,
    "title" TEXT,
    "content_type" TEXT,
    "source_url" TEXT,
    "filename" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "error" TEXT,
    "page_count" INTEGER,
    "chunk_count" INTEGER NOT NULL DEFAULT 0,
    "byte_size" INTEGER,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "scopes" JSONB NOT NULL DEFAULT '{}',
    "original" BYTEA,
    "blocks" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "processed_at" TIMESTAMPTZ(3),

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "documents_status_check" CHECK ("status" IN ('queued', 'processing', 'ready', 'failed')),
    CONSTRAINT "documents_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "documents_namespace_id_fkey" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "documents_namespace_id_created_at_idx" ON "documents"("namespace_id", "created_at");
CREATE INDEX "documents_org_id_identity_id_idx" ON "documents"("org_id", "identity_id");

-- A document's passages: deleted with it (through lib/memory/deletion, which keeps the search statistics).
ALTER TABLE "memories" ADD COLUMN "document_id" TEXT;
CREATE INDEX "memories_document_id_idx" ON "memories"("document_id");
