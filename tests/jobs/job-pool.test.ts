// A pool of job workers shares one poll (lib/jobs/queue.ts startJobWorker): an idle server's eight webhook
// delivery workers made 32 claims a second between them, each a statement on the database's one thread.
import { afterEach, expect, test, vi } from "vitest";
import { db } from "@/lib/db";
import { enqueueJob, startJobWorker } from "@/lib/jobs/queue";
import { createTenant } from "../helpers/fixtures";

// A claim can be held after the database answered it and before the worker sees the answer, as a loaded
// machine holds it: a wake-up that comes in between must not be lost.
const claims = vi.hoisted(() => ({ answered: 0, hold: null as Promise<void> | null }));
vi.mock("@/lib/jobs/claim-job", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/jobs/claim-job")>();
  return {
    ...actual,
    claimJob: async (...args: Parameters<typeof actual.claimJob>) => {
      const job = await actual.claimJob(...args);
      claims.answered += 1;
      if (claims.hold) await claims.hold;
      return job;
    },
  };
});

const KIND = "pool-test";
const stops: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  const prisma = await db();
  await prisma.$executeRaw`DELETE FROM jobs WHERE kind = ${KIND}`;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("eight idle workers sharing a poll look for jobs once per interval between them, not eight times", async () => {
  let turns = 0;
  const stop = startJobWorker(
    { [KIND]: async () => undefined },
    {
      workers: 8,
      pollIntervalMs: 100,
      within: (work) => {
        turns += 1;
        return work();
      },
    },
  );
  stops.push(stop);
  await sleep(1_050);
  await stop();
  // Ten polls and the first look; eight workers on timers of their own took 88.
  expect(turns).toBeGreaterThanOrEqual(3);
  expect(turns).toBeLessThanOrEqual(13);
});

test("while one worker is held by a slow job, the poll hands a job queued elsewhere to another", async () => {
  const { org } = await createTenant("Pool poll");
  const prisma = await db();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const ran: string[] = [];
  const stop = startJobWorker(
    {
      [KIND]: async (job) => {
        ran.push(String(job.payload.label));
        if (job.payload.label === "slow") await held;
      },
    },
    { workers: 2, pollIntervalMs: 100 },
  );
  stops.push(async () => {
    release();
    await stop();
  });
  await enqueueJob({ kind: KIND, orgId: org.id, payload: { label: "slow" } });
  await expect.poll(() => ran, { timeout: 5_000 }).toEqual(["slow"]);
  // Queued inside a transaction, as another instance would: no wake-up here, only the poll finds it.
  await prisma.$transaction((tx) => enqueueJob({ kind: KIND, orgId: org.id, payload: { label: "elsewhere" } }, tx));
  await expect.poll(() => ran, { timeout: 5_000 }).toEqual(["slow", "elsewhere"]);
  expect(await prisma.job.count({ where: { kind: KIND, status: "running" } })).toBe(1);
});

test("a job queued while a worker's claim is finding nothing runs then, not at the next poll", async () => {
  const { org } = await createTenant("Pool wake");
  let release!: () => void;
  claims.hold = new Promise<void>((resolve) => (release = resolve));
  claims.answered = 0;
  const ran: string[] = [];
  const stop = startJobWorker(
    { [KIND]: async (job) => void ran.push(String(job.payload.label)) },
    {
      pollIntervalMs: 60_000,
    },
  );
  stops.push(async () => {
    claims.hold = null;
    release();
    await stop();
  });
  // The worker's first look has found nothing and is still on its way back when the job is queued and wakes it.
  await expect.poll(() => claims.answered, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
  await enqueueJob({ kind: KIND, orgId: org.id, payload: { label: "queued during the claim" } });
  claims.hold = null;
  release();
  // Lost, that wake-up left the job to the poll a minute on (a stream of webhook writes waited for it: every
  // write after the first leaves the waking to the first's).
  await expect.poll(() => ran, { timeout: 5_000 }).toEqual(["queued during the claim"]);
});
