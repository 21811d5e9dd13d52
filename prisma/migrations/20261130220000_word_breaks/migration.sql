-- Full-text search cuts text in scripts written without spaces into words before indexing it (lib/memory/common/
-- word-breaks.ts). Chunks indexed before, in such a script, are marked here and indexed again by a background job
-- (lib/memory/store/word-break-reindex.ts), a batch per transaction; the partial index finds the ones left.
-- Han, Hiragana, Katakana, Thai, Lao, Myanmar, Khmer: as word-breaks.ts's UNSPACED_SCRIPT.
ALTER TABLE "memory_chunks" ADD COLUMN "needs_word_breaks" BOOLEAN NOT NULL DEFAULT false;

UPDATE "memory_chunks" SET "needs_word_breaks" = true
WHERE "content" ~ '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u31f0-\u31ff\uff66-\uff9f\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\U00020000-\U0003134f]';

CREATE INDEX "memory_chunks_needs_word_breaks_idx" ON "memory_chunks" ("namespace_id") WHERE "needs_word_breaks";
