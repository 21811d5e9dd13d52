-- Periodic maintenance (activity retention, expired OAuth records) runs once per period across every
-- instance sharing the database: an instance runs a task only if it moves the task's next run forward.
CREATE TABLE "scheduled_tasks" (
    "name" TEXT NOT NULL,
    "next_run_at" TIMESTAMPTZ(3) NOT NULL,
    "last_run_by" TEXT,

    CONSTRAINT "scheduled_tasks_pkey" PRIMARY KEY ("name")
);
