-- The console's identities (issue 14): who the memories are about, per namespace, kept up to date by
-- triggers so that listing an organization's identities reads a few rows per identity instead of grouping
-- every memory and every activity row of the organization on each page view.
CREATE TABLE "identity_summaries" (
    "org_id" TEXT NOT NULL,
    "namespace_id" TEXT NOT NULL,
    "identity_id" TEXT NOT NULL,
    "memory_count" INTEGER NOT NULL DEFAULT 0,
    "last_activity_at" TIMESTAMPTZ(3),

    CONSTRAINT "identity_summaries_pkey" PRIMARY KEY ("namespace_id", "identity_id")
);
-- Byte order ("C"), whatever the database's collation: the identities list pages through it in id order
-- and a prefix search is one range of it.
CREATE INDEX "identity_summaries_org_id_identity_id_idx" ON "identity_summaries"("org_id", "identity_id" COLLATE "C");

-- No foreign key to namespaces: an activity row may be written just after its namespace was deleted (the
-- log write is not awaited), and it must not fail for that. Deleting a namespace deletes its rows (the
-- trigger below); readers join namespaces anyway (visibility), so a straggler is never shown.

-- Statement-level triggers with transition tables: a batch of 100 memories is one upsert, not 100.
CREATE FUNCTION "identity_summaries_memories_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "identity_summaries" ("org_id", "namespace_id", "identity_id", "memory_count")
  SELECT "org_id", "namespace_id", "identity_id", count(*) FROM new_rows
  WHERE "identity_id" IS NOT NULL GROUP BY 1, 2, 3
  ON CONFLICT ("namespace_id", "identity_id")
    DO UPDATE SET "memory_count" = "identity_summaries"."memory_count" + EXCLUDED."memory_count";
  RETURN NULL;
END $$;

CREATE FUNCTION "identity_summaries_memories_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "identity_summaries" s SET "memory_count" = GREATEST(s."memory_count" - gone.n, 0)
  FROM (SELECT "namespace_id", "identity_id", count(*) AS n FROM old_rows
        WHERE "identity_id" IS NOT NULL GROUP BY 1, 2) gone
  WHERE s."namespace_id" = gone."namespace_id" AND s."identity_id" = gone."identity_id";
  -- An identity with neither memories nor activity left in the namespace is no longer seen there.
  DELETE FROM "identity_summaries" s USING (SELECT DISTINCT "namespace_id", "identity_id" FROM old_rows) gone
  WHERE s."namespace_id" = gone."namespace_id" AND s."identity_id" = gone."identity_id"
    AND s."memory_count" = 0 AND s."last_activity_at" IS NULL;
  RETURN NULL;
END $$;

-- Activity without a namespace (refused before one was resolved) is not counted: only owners could see it.
CREATE FUNCTION "identity_summaries_activity_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "identity_summaries" ("org_id", "namespace_id", "identity_id", "last_activity_at")
  SELECT "org_id", "namespace_id", "identity_id", max("created_at") FROM new_rows
  WHERE "identity_id" IS NOT NULL AND "namespace_id" IS NOT NULL GROUP BY 1, 2, 3
  ON CONFLICT ("namespace_id", "identity_id")
    DO UPDATE SET "last_activity_at" =
      GREATEST("identity_summaries"."last_activity_at", EXCLUDED."last_activity_at");
  RETURN NULL;
END $$;

CREATE FUNCTION "identity_summaries_namespaces_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "identity_summaries" s USING old_rows n WHERE s."namespace_id" = n."id";
  RETURN NULL;
END $$;

CREATE TRIGGER "identity_summaries_memories_added" AFTER INSERT ON "memories"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "identity_summaries_memories_added"();
CREATE TRIGGER "identity_summaries_memories_removed" AFTER DELETE ON "memories"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "identity_summaries_memories_removed"();
CREATE TRIGGER "identity_summaries_activity_added" AFTER INSERT ON "activity_logs"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "identity_summaries_activity_added"();
CREATE TRIGGER "identity_summaries_namespaces_removed" AFTER DELETE ON "namespaces"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "identity_summaries_namespaces_removed"();

-- Backfill from what is already stored.
INSERT INTO "identity_summaries" ("org_id", "namespace_id", "identity_id", "memory_count", "last_activity_at")
SELECT "org_id", "namespace_id", "identity_id", sum("memories")::int, max("last_activity_at")
FROM (
  SELECT "org_id", "namespace_id", "identity_id", count(*) AS "memories", NULL::timestamptz AS "last_activity_at"
  FROM "memories" WHERE "identity_id" IS NOT NULL GROUP BY 1, 2, 3
  UNION ALL
  SELECT a."org_id", a."namespace_id", a."identity_id", 0, max(a."created_at")
  FROM "activity_logs" a JOIN "namespaces" n ON n."id" = a."namespace_id" AND n."org_id" = a."org_id"
  WHERE a."identity_id" IS NOT NULL GROUP BY 1, 2, 3
) seen
GROUP BY 1, 2, 3;

-- An identity's memories across the namespaces a person may see, newest first (identity page, forget).
CREATE INDEX "memories_org_id_identity_id_created_at_idx" ON "memories"("org_id", "identity_id", "created_at");
-- The explorer's identity filter, newest first: supersedes the (namespace_id, identity_id) index.
DROP INDEX "memories_namespace_id_identity_id_idx";
CREATE INDEX "memories_namespace_id_identity_id_created_at_idx"
  ON "memories"("namespace_id", "identity_id", "created_at");
-- One namespace's activity over time (namespace page chart, explorer).
CREATE INDEX "activity_logs_org_id_namespace_id_created_at_idx"
  ON "activity_logs"("org_id", "namespace_id", "created_at");
