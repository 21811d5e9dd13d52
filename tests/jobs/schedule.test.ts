// Hourly maintenance runs once per period whichever instance asks: lib/jobs/schedule.ts.
import { expect, test } from "vitest";
import { db } from "@/lib/db";
import { claimScheduledRun } from "@/lib/jobs/schedule";

test("of claims made at once, one runs the task; none until its period ends; then one again", async () => {
  const claims = await Promise.all(Array.from({ length: 6 }, () => claimScheduledRun("test-task", 60_000)));
  expect(claims.filter(Boolean)).toHaveLength(1);
  expect(await claimScheduledRun("test-task", 60_000)).toBe(false);
  // Another task has a period of its own.
  expect(await claimScheduledRun("another-task", 60_000)).toBe(true);
  const prisma = await db();
  await prisma.scheduledTask.update({ where: { name: "test-task" }, data: { nextRunAt: new Date(Date.now() - 1) } });
  const next = await Promise.all([claimScheduledRun("test-task", 60_000), claimScheduledRun("test-task", 60_000)]);
  expect(next.filter(Boolean)).toHaveLength(1);
  const [row] = await prisma.scheduledTask.findMany({ where: { name: "test-task" } });
  expect(row.nextRunAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
});
