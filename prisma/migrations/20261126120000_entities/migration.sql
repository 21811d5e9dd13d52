-- Issue 33: the entities memories name (people, organizations, places, works, events, dates), one row per entity
-- of a namespace, and the memories that mention each, with how often. Extracted offline at write time
-- (lib/memory/entities); a link goes with its memory, an entity with the last memory that mentions it.
CREATE TABLE "entities" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "namespace_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "aliases" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    -- Named as a conversation turn's speaker: a short form of the name ("Mel") merges into it when unambiguous.
    "speaker" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "entities_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "entities_kind_check"
      CHECK ("kind" IN ('person', 'organization', 'place', 'work', 'event', 'date', 'other'))
);

CREATE TABLE "memory_entities" (
    "memory_id" TEXT NOT NULL,
    "entity_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "namespace_id" TEXT NOT NULL,
    "mentions" INTEGER NOT NULL,

    CONSTRAINT "memory_entities_pkey" PRIMARY KEY ("memory_id", "entity_id")
);

-- Which extractor version found a memory's entities: NULL (written before entities) or another version than the
-- running one is extracted again by the maintenance job (lib/memory/entities/reextract-entities.ts).
ALTER TABLE "memories" ADD COLUMN "entities_version" TEXT;

CREATE UNIQUE INDEX "entities_namespace_id_key_key" ON "entities"("namespace_id", "key");
CREATE INDEX "entities_org_id_idx" ON "entities"("org_id");
CREATE INDEX "entities_namespace_id_kind_idx" ON "entities"("namespace_id", "kind");
CREATE INDEX "memory_entities_entity_id_idx" ON "memory_entities"("entity_id");
CREATE INDEX "memory_entities_namespace_id_entity_id_idx" ON "memory_entities"("namespace_id", "entity_id");
-- The job's work list: NULL, and (by range) any version but the running one, overall or in one namespace.
CREATE INDEX "memories_entities_version_idx" ON "memories"("entities_version", "namespace_id");

ALTER TABLE "entities" ADD CONSTRAINT "entities_org_id_fkey"
  FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "entities" ADD CONSTRAINT "entities_namespace_id_fkey"
  FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memory_entities" ADD CONSTRAINT "memory_entities_memory_id_fkey"
  FOREIGN KEY ("memory_id") REFERENCES "memories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memory_entities" ADD CONSTRAINT "memory_entities_entity_id_fkey"
  FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;
