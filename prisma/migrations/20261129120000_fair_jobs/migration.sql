-- Jobs are shared fairly between organizations (lib/jobs/queue.ts claimJob). A running job of a capped kind
-- holds one of its organization's slots: two instances claiming at once cannot both take the last one.
ALTER TABLE "jobs" ADD COLUMN "slot" INTEGER;
CREATE UNIQUE INDEX "jobs_running_slot_key" ON "jobs"("kind", "org_id", "slot") WHERE "status" = 'running';
-- The running jobs of each organization of a kind, counted at every claim.
CREATE INDEX "jobs_kind_status_org_id_idx" ON "jobs"("kind", "status", "org_id");

-- When each organization's last job of a kind was claimed: between organizations with as many jobs running,
-- the one served longest ago goes first.
CREATE TABLE "job_turns" (
    "kind" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "served_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "job_turns_pkey" PRIMARY KEY ("kind", "org_id")
);
