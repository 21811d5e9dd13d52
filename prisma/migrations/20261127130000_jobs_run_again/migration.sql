-- A job asked for again while it runs (what it works on changed after it read it) runs again once it ends.
ALTER TABLE "jobs" ADD COLUMN "run_again" BOOLEAN NOT NULL DEFAULT false;
