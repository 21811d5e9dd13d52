-- Writes spanning several transactions (lib/memory/write-intents.ts): a batch or conversation remember
-- written in groups, an import, and every remember made under an Idempotency-Key. The intent row is
-- inserted in the transaction of the write's first group and deleted with its last one (or, under an
-- Idempotency-Key, with the kept answer); one left behind is a write its process did not finish, rolled
-- back (its memories deleted, a conversation's reservation returned) at start-up, when its lease ends, or
-- by the retry that takes its Idempotency-Key over.
CREATE TABLE "write_intents" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "namespace_id" TEXT NOT NULL,
    -- remember, import
    "kind" TEXT NOT NULL,
    -- The Idempotency-Key claim the write was made under (org:key:hash), if any: its answer keeps the write.
    "idempotency_key" TEXT,
    -- A conversation's positions reserved by the write: given back on rollback when still the session's last.
    "session_id" TEXT,
    "first_position" INTEGER,
    "position_count" INTEGER,
    "process_id" TEXT NOT NULL,
    "locked_until" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "write_intents_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "write_intents_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "write_intents_namespace_id_fkey" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "write_intents_locked_until_idx" ON "write_intents"("locked_until");
CREATE INDEX "write_intents_idempotency_key_idx" ON "write_intents"("idempotency_key") WHERE "idempotency_key" IS NOT NULL;

-- The memories an unfinished write stored, added in the transaction that stored them.
CREATE TABLE "write_intent_memories" (
    "intent_id" TEXT NOT NULL,
    "memory_id" TEXT NOT NULL,
    CONSTRAINT "write_intent_memories_pkey" PRIMARY KEY ("intent_id", "memory_id"),
    CONSTRAINT "write_intent_memories_intent_id_fkey" FOREIGN KEY ("intent_id") REFERENCES "write_intents"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
