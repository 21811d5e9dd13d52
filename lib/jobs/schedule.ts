// Periodic maintenance that must run once per period, however many instances share the database: each
// instance asks now and then, and only the one whose statement moves the task's next run forward runs it.
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

// On globalThis because Next bundles each route module with its own copy of this one: one process, one id.
const processState = globalThis as typeof globalThis & { __memgwScheduleRunner?: string };
const runnerId = (processState.__memgwScheduleRunner ??= randomUUID());

/**
 * Whether this instance runs `name` now: true for exactly one caller per `periodMs` across instances (one
 * statement: two instances asking at once cannot both get it). A run that dies half-way is run again in the
 * next period; every task run this way is safe to repeat.
 */
export async function claimScheduledRun(name: string, periodMs: number): Promise<boolean> {
  const prisma = await db();
  const claimed = await prisma.$queryRaw<{ name: string }[]>(
    Prisma.sql`INSERT INTO scheduled_tasks (name, next_run_at, last_run_by)
     VALUES (${name}, now() + ${periodMs} * interval '1 millisecond', ${runnerId})
     ON CONFLICT (name) DO UPDATE SET next_run_at = EXCLUDED.next_run_at, last_run_by = EXCLUDED.last_run_by
       WHERE scheduled_tasks.next_run_at <= now()
     RETURNING name`,
  );
  return claimed.length > 0;
}
