// Background jobs are shared fairly between organizations (lib/jobs/claim-job.ts claimJob, the pools of
// lib/startup.ts): an organization holds at most its cap of a kind's workers, whoever claims (several
// connections at once on PostgreSQL, as several instances do); organizations with as many running take turns;
// and another organization's small document is ready in seconds whatever one organization queued.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";
import { afterEach, expect, test } from "vitest";
import { db } from "@/lib/db";
import { claimJob } from "@/lib/jobs/claim-job";
import { SYNC_JOB_KIND } from "@/lib/integrations/connections/sync-job";
import {
  enqueueJob,
  runClaimedJob,
  runDueJobs,
  startJobWorker,
  type ClaimedJob,
  type JobRunner,
} from "@/lib/jobs/queue";
import { DOCUMENT_JOB_KIND } from "@/lib/documents/ingestion-job";
import { warmUpEmbedder } from "@/lib/memory/embeddings";
import { ENTITY_REEXTRACT_JOB } from "@/lib/memory/entities/reextract-entities";
import { jobPools, startJobWorkers } from "@/lib/startup";
import { api } from "../helpers/api";
import { addDocument, uploadDocument } from "../helpers/documents";
import { createNamespace, createTenant } from "../helpers/fixtures";
import { scannedPdf } from "../helpers/pdf";

const KIND = "fairness-test";
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  delete process.env.ALLOW_PRIVATE_OUTBOUND;
  const prisma = await db();
  await prisma.$executeRaw`DELETE FROM jobs WHERE kind = ${KIND}`;
});

async function queue(orgId: string, count: number, label: string) {
  for (let i = 1; i <= count; i++) await enqueueJob({ kind: KIND, orgId, payload: { label: `${label}${i}` } });
}

async function runningOf(orgId: string, kind = KIND): Promise<number> {
  const prisma = await db();
  return prisma.job.count({ where: { kind, orgId, status: "running" } });
}

test("the claim takes another organization's job before A's second one; A never holds more than its cap", async () => {
  const a = await createTenant("Fair A");
  const b = await createTenant("Fair B");
  await queue(a.org.id, 3, "a");
  await queue(b.org.id, 1, "b");

  const first = await claimJob([KIND], { perOrg: 1 });
  expect(first?.payload.label).toBe("a1");
  // A queued first, but holds its one slot: B's job goes next, then nothing (A is at its cap, B has no more).
  expect((await claimJob([KIND], { perOrg: 1 }))?.payload.label).toBe("b1");
  expect(await claimJob([KIND], { perOrg: 1 })).toBeNull();
  expect(await runningOf(a.org.id)).toBe(1);

  // A's job ends: its next one may run.
  await runClaimedJob(first!, async () => undefined);
  expect((await claimJob([KIND], { perOrg: 1 }))?.payload.label).toBe("a2");
  expect(await claimJob([KIND], { perOrg: 1 })).toBeNull();
});

test("organizations with as many jobs running take turns: the one served longest ago goes first", async () => {
  const a = await createTenant("Turns A");
  const b = await createTenant("Turns B");
  const c = await createTenant("Turns C");
  await queue(a.org.id, 3, "a");
  await queue(b.org.id, 2, "b");
  await queue(c.org.id, 1, "c");
  const order: unknown[] = [];
  const ran = await runDueJobs({ [KIND]: async (job) => void order.push(job.payload.label) }, { perOrg: 1 });
  expect(ran).toBe(6);
  expect(order).toEqual(["a1", "b1", "c1", "a2", "b2", "a3"]);
});

test("a job whose runner's lease ran out keeps its organization's slot and is claimed again first", async () => {
  const a = await createTenant("Lease A");
  await queue(a.org.id, 2, "a");
  const first = (await claimJob([KIND], { perOrg: 1 }))!;
  const prisma = await db();
  await prisma.job.update({ where: { id: first.id }, data: { lockedUntil: new Date(Date.now() - 1_000) } });
  // Its runner died (another instance): the job runs again, in the slot it held; A's second still waits.
  const again = await claimJob([KIND], { perOrg: 1 });
  expect(again).toMatchObject({ id: first.id, attempts: 2 });
  expect(await claimJob([KIND], { perOrg: 1 })).toBeNull();
  expect(await runningOf(a.org.id)).toBe(1);
});

test("claims made at once (each on its own connection on PostgreSQL) never pass an organization's cap", async () => {
  const a = await createTenant("Race A");
  const b = await createTenant("Race B");
  await queue(a.org.id, 12, "a");
  await queue(b.org.id, 12, "b");
  const claims = await Promise.all(Array.from({ length: 12 }, () => claimJob([KIND], { perOrg: 2 })));
  const claimed = claims.filter((job): job is ClaimedJob => job !== null);
  expect(claimed.map((job) => job.orgId).sort()).toEqual([a.org.id, a.org.id, b.org.id, b.org.id].sort());
  expect(await runningOf(a.org.id)).toBe(2);
  expect(await runningOf(b.org.id)).toBe(2);
});

test("another organization's sync is claimed while one's sync and the entity re-extraction run", async () => {
  const a = await createTenant("Pool A");
  const b = await createTenant("Pool B");
  const prisma = await db();
  // B's last sync was claimed a moment ago: among due jobs, those of organizations never served go first.
  await prisma.$executeRaw`INSERT INTO job_turns (kind, org_id, served_at)
                           VALUES (${SYNC_JOB_KIND}, ${b.org.id}, now())`;
  for (const label of ["a1", "a2"])
    await enqueueJob({ kind: SYNC_JOB_KIND, orgId: a.org.id, key: `pool-${label}`, payload: { label } });
  await enqueueJob({ kind: ENTITY_REEXTRACT_JOB, key: "pool-entities" });
  await enqueueJob({ kind: SYNC_JOB_KIND, orgId: b.org.id, key: "pool-b1", payload: { label: "b1" } });

  // The server's pools (kinds, sizes, caps), each job held until the end: what runs is what was claimed.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const hold: JobRunner = () => released;
  const pools = jobPools().map((pool) => ({
    ...pool,
    runners: Object.fromEntries(Object.keys(pool.runners).map((kind) => [kind, hold])),
  }));
  const stop = startJobWorkers(pools);
  cleanups.push(async () => {
    release();
    await stop();
    await prisma.job.deleteMany({ where: { kind: { in: [SYNC_JOB_KIND, ENTITY_REEXTRACT_JOB] } } });
  });

  await until(async () => (await runningOf(b.org.id, SYNC_JOB_KIND)) === 1, 10_000, "B's sync claimed");
  expect(await runningOf(a.org.id, SYNC_JOB_KIND)).toBe(1);
  expect(await prisma.job.count({ where: { kind: ENTITY_REEXTRACT_JOB, status: "running" } })).toBe(1);
  // A's other sync waits (which of the two runs is not fixed: both were queued within the same millisecond).
  expect(await prisma.job.count({ where: { key: { in: ["pool-a1", "pool-a2"] }, status: "queued" } })).toBe(1);
});

test("a worker capped per organization serves one kind: the cap is per kind", () => {
  const runners = { [SYNC_JOB_KIND]: async () => undefined, [ENTITY_REEXTRACT_JOB]: async () => undefined };
  expect(() => startJobWorker(runners, { perOrg: 1 })).toThrow(/capped per organization serves one kind/);
});

/** A server that accepts every request and never answers: a document whose fetch holds a worker. */
async function hangingServer() {
  const sockets = new Set<Socket>();
  const server = http.createServer(() => undefined);
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The server's job workers, as lib/startup.ts starts them (stopped after the test), with the embedding model
 * loaded as the server loads it once it listens: what is measured is the wait, not the model's loading.
 */
async function startWorkers() {
  await warmUpEmbedder();
  const stop = startJobWorkers();
  cleanups.push(stop);
}

async function documentStatus(key: string, id: string): Promise<string> {
  return (await api("GET", `/documents/${id}`, { key })).body.data.status;
}

async function until(condition: () => Promise<boolean>, timeoutMs: number, what: string) {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - start;
}

// The target is 15 s (B waits for no job of A's); the bound is twice that, as the test machine may be shared by
// many test runs at once (measured here at a load of 20 on 2 cores: 7-13 s).
const READY_WITHIN_MS = 30_000;

const MARKDOWN = {
  bytes: new TextEncoder().encode("# Note\n\nThe harbour ledger is kept upstairs.\n"),
  name: "note.md",
};

/** B uploads its small Markdown document; resolves with how long it took to be ready. */
async function smallDocumentReady(key: string, namespaceId: string, timeoutMs: number): Promise<number> {
  const uploaded = await uploadDocument(key, { ...MARKDOWN, type: "text/markdown" }, { namespace_id: namespaceId });
  expect(uploaded.status).toBe(202);
  const id = uploaded.body.data.id as string;
  return until(async () => (await documentStatus(key, id)) === "ready", timeoutMs, "B's document ready");
}

test("B's small document is ready in seconds while A's documents hold a worker as long as they can", async () => {
  process.env.ALLOW_PRIVATE_OUTBOUND = "true";
  const origin = await hangingServer();
  const a = await createTenant("Docs A");
  const b = await createTenant("Docs B");
  const nsA = await createNamespace(a.key);
  const nsB = await createNamespace(b.key);
  await startWorkers();
  const documentsOfA = [];
  for (let i = 0; i < 4; i++)
    documentsOfA.push(await addDocument(a.key, { namespace_id: nsA.id, url: `${origin}/slow-${i}` }));
  await until(async () => (await runningOf(a.org.id, DOCUMENT_JOB_KIND)) === 1, 10_000, "A's first document taken");

  const elapsed = await smallDocumentReady(b.key, nsB.id, READY_WITHIN_MS);
  console.log(`B's document was ready in ${elapsed} ms while A's fetches hung`);
  // A's first still hangs (a fetch may take 30 s), its others wait for its one slot.
  expect(await runningOf(a.org.id, DOCUMENT_JOB_KIND)).toBe(1);
  const statuses = await Promise.all(documentsOfA.map((document) => documentStatus(a.key, document.id)));
  expect(statuses.sort()).toEqual(["processing", "queued", "queued", "queued"]);
}, 60_000);

test("B's small document is ready in seconds while A's scanned PDFs are read by OCR", async () => {
  const a = await createTenant("OCR A");
  const b = await createTenant("OCR B");
  const nsA = await createNamespace(a.key);
  const nsB = await createNamespace(b.key);
  const scan = await scannedPdf(12);
  await startWorkers();
  for (let i = 0; i < 3; i++) {
    const uploaded = await uploadDocument(
      a.key,
      { bytes: scan, name: `scan-${i}.pdf`, type: "application/pdf" },
      { namespace_id: nsA.id },
    );
    expect(uploaded.status).toBe(202);
  }
  await until(async () => (await runningOf(a.org.id, DOCUMENT_JOB_KIND)) === 1, 10_000, "A's first scan taken");

  const elapsed = await smallDocumentReady(b.key, nsB.id, READY_WITHIN_MS);
  console.log(`B's document was ready in ${elapsed} ms during A's OCR`);
  expect(await runningOf(a.org.id, DOCUMENT_JOB_KIND)).toBeLessThanOrEqual(1);
}, 120_000);
