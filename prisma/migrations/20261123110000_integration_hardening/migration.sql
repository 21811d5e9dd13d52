-- A connection started in the console is bound to that browser (the hash of a nonce in an HttpOnly cookie):
-- the browser callback completes it only there. A synced document goes with its memory (a memory forgotten by
-- hand is stored again by the next sync rather than leaving a row that points nowhere).
ALTER TABLE "integration_connections" ADD COLUMN "browser_binding_hash" TEXT;

DELETE FROM "integration_documents" d WHERE NOT EXISTS (SELECT 1 FROM "memories" m WHERE m."id" = d."memory_id");
ALTER TABLE "integration_documents" ADD CONSTRAINT "integration_documents_memory_id_fkey"
    FOREIGN KEY ("memory_id") REFERENCES "memories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
