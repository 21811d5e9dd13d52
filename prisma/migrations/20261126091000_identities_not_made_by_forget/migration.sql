-- Issue 32: a forget that matched nothing listed its identity_id among the identities ("nobody"), and a
-- forget that erased everything kept listing it. Forgetting is erasure: it never makes an identity appear.
-- Nor does a refused call (a typo in an identity_id sent with a bad request). Both still move the last
-- activity of an identity that is already listed; every call stays in the activity log.
CREATE OR REPLACE FUNCTION "identity_summaries_activity_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "identity_summaries" s SET "last_activity_at" = GREATEST(s."last_activity_at", seen."last")
  FROM (SELECT "namespace_id", "identity_id", max("created_at") AS "last" FROM new_rows
        WHERE "identity_id" IS NOT NULL AND "namespace_id" IS NOT NULL GROUP BY 1, 2) seen
  WHERE s."namespace_id" = seen."namespace_id" AND s."identity_id" = seen."identity_id";
  INSERT INTO "identity_summaries" ("org_id", "namespace_id", "identity_id", "last_activity_at")
  SELECT "org_id", "namespace_id", "identity_id", max("created_at") FROM new_rows
  WHERE "identity_id" IS NOT NULL AND "namespace_id" IS NOT NULL
    AND "operation" <> 'forget' AND "status" < 400
  GROUP BY 1, 2, 3
  ON CONFLICT ("namespace_id", "identity_id")
    DO UPDATE SET "last_activity_at" =
      GREATEST("identity_summaries"."last_activity_at", EXCLUDED."last_activity_at");
  RETURN NULL;
END $$;

-- The identities such calls already made: no memory, and no activity in the namespace but forgets and refusals.
DELETE FROM "identity_summaries" s
WHERE s."memory_count" = 0
  AND NOT EXISTS (
    SELECT 1 FROM "activity_logs" a
    WHERE a."org_id" = s."org_id" AND a."namespace_id" = s."namespace_id" AND a."identity_id" = s."identity_id"
      AND a."operation" <> 'forget' AND a."status" < 400
  );
