-- Requests a key made to a namespace of its organization that it is not granted (details.refused = 'no grant'): the
-- console's keys page lists them per key (lib/activity/ungranted-refusals.ts). The index holds those rows only, so
-- the page never reads the organization's other traffic.
CREATE INDEX "activity_logs_ungranted_idx" ON "activity_logs" ("org_id", "created_at")
WHERE (("details" ->> 'refused') = 'no grant');
