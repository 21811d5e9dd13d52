// On PostgreSQL the webhook delivery workers send their statements on connections of their own
// (onBackgroundConnections): with every connection of the requests' pool taken, as under a stream of writes,
// deliveries still go out instead of waiting behind each queued request's statements; and with every background
// connection taken (statements waiting on a long write's row lock), a running job's lease is still renewed.
import pg from "pg";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { setting } from "@/lib/config";
import { db, onBackgroundConnections, Prisma, queryRows } from "@/lib/db";
import { BACKGROUND_CONNECTIONS } from "@/lib/db/statement-contexts";
import { settleWaitMs, startWebhookDelivery, webhookJobRunners } from "@/lib/events/webhooks/deliver";
import { claimJob } from "@/lib/jobs/claim-job";
import { enqueueJob, runClaimedJob, startJobWorker } from "@/lib/jobs/queue";
import { api } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";
import { onPostgres } from "../helpers/postgres";
import { settled, settledThenDelivered } from "../helpers/settled";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  // The receiver is on loopback over http: what the operator setting allows (tests, private deployments).
  process.env.ALLOW_PRIVATE_OUTBOUND = "true";
});
afterAll(async () => {
  await receiver.stop();
  delete process.env.ALLOW_PRIVATE_OUTBOUND;
});

test.runIf(onPostgres())("events are delivered while every connection of the requests' pool is taken", async () => {
  const { key } = await createTenant("Busy Pool");
  const namespace = await createNamespace(key);
  const created = await api("POST", "/webhooks", {
    key,
    body: { url: receiver.url, namespace_ids: [namespace.id] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  receiver.secrets.push(created.body.data.secret as string);
  const written = await api("POST", "/remember", { key, body: { namespace_id: namespace.id, content: "A fact." } });
  expect(written.status).toBe(201);

  // Each of the pool's connections held by a transaction that waits until the delivery is in.
  const prisma = await db();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding = 0;
  const holders = Array.from({ length: setting("DATABASE_POOL_SIZE") }, () =>
    prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        holding += 1;
        await released;
      },
      { timeout: 60_000 },
    ),
  );
  const stopDelivery = startWebhookDelivery();
  // What the delivery wrote, read on a connection of the test's own while the pool's are held.
  const observer = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await observer.connect();
  try {
    await vi.waitFor(() => expect(holding).toBe(setting("DATABASE_POOL_SIZE")), { timeout: 10_000 });
    await vi.waitFor(
      () => expect(receiver.messages.map((m) => m.data.data.memory_id)).toEqual([written.body.data.id]),
      { timeout: 10_000 },
    );
    // Recorded as delivered and the job ended, all while the requests' connections are still held.
    await vi.waitFor(
      async () => {
        const delivery = await observer.query(
          "SELECT status, attempts, response_status FROM webhook_deliveries WHERE endpoint_id = $1",
          [created.body.data.endpoint.id],
        );
        expect(delivery.rows).toEqual([{ status: "delivered", attempts: 1, response_status: 200 }]);
        const jobs = await observer.query("SELECT status FROM jobs WHERE key = $1", [
          `webhook:${created.body.data.endpoint.id}`,
        ]);
        expect(jobs.rows).toEqual([]);
      },
      { timeout: 10_000 },
    );
  } finally {
    await observer.end();
    release();
    await Promise.all(holders);
    await stopDelivery();
  }
});

test.runIf(onPostgres())("a running job's lease is renewed while every background connection is taken", async () => {
  await enqueueJob({ kind: "lease_renewal_test", key: "lease-renewal-test" });
  const job = await onBackgroundConnections(() => claimJob(["lease_renewal_test"]));
  expect(job).not.toBeNull();
  const observer = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await observer.connect();
  const lockedUntil = async () =>
    (
      (await observer.query("SELECT locked_until FROM jobs WHERE id = $1", [job!.id])).rows[0].locked_until as Date
    ).getTime();
  try {
    const claimedUntil = await lockedUntil();
    // Every background connection busy for 9 s (as when each waits on a row lock a long write holds).
    const busy = onBackgroundConnections(() =>
      Promise.all(Array.from({ length: BACKGROUND_CONNECTIONS }, () => queryRows(Prisma.sql`SELECT pg_sleep(9)`))),
    );
    let renewedDuringRun: number | undefined;
    await onBackgroundConnections(() =>
      runClaimedJob(job!, async () => {
        // Past the first renewal (every 5 s), well before the busy connections are free.
        await new Promise((resolve) => setTimeout(resolve, 6_500));
        renewedDuringRun = await lockedUntil();
      }),
    );
    await busy;
    expect(renewedDuringRun! - claimedUntil).toBeGreaterThanOrEqual(4_000);
  } finally {
    await observer.end();
  }
});

// An event is sent only once every transaction older than its own has ended (SETTLED), and on PostgreSQL that is
// any transaction on the server: another organization's long import holds back this one's deliveries. The run that
// finds only such deliveries asks to run again shortly; it used to end as if nothing were pending, leaving them to
// the next write or poll (here a minute away).
test.runIf(onPostgres())(
  "a delivery held back by another organization's older open transaction goes out once it ends, with no write",
  async () => {
    const { key } = await createTenant("Held Back");
    const namespace = await createNamespace(key);
    const created = await api("POST", "/webhooks", { key, body: { url: receiver.url, namespace_ids: [namespace.id] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    receiver.secrets.push(created.body.data.secret as string);
    const stopWorker = startJobWorker(webhookJobRunners, { pollIntervalMs: 60_000 });
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      // As another organization's long import: a transaction with a transaction id, older than the write's.
      await other.query("BEGIN");
      await other.query("SELECT txid_current()");
      const written = await api("POST", "/remember", { key, body: { namespace_id: namespace.id, content: "A fact." } });
      expect(written.status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(receiver.messages.filter((m) => m.data.namespace_id === namespace.id)).toEqual([]);
      await other.query("COMMIT");
      await settledThenDelivered(() =>
        expect(
          receiver.messages.filter((m) => m.data.namespace_id === namespace.id).map((m) => m.data.data.memory_id),
        ).toEqual([written.body.data.id]),
      );
    } finally {
      await other.end();
      await stopWorker();
    }
  },
);

// The same behind a delivery that is settled: a run sends what is settled of a namespace and must not end while
// the rest of it waits for an older transaction.
test.runIf(onPostgres())(
  "a delivery held back behind one that goes out is sent once the older transaction ends, with no write",
  async () => {
    const { key } = await createTenant("Held Behind");
    const namespace = await createNamespace(key);
    const created = await api("POST", "/webhooks", { key, body: { url: receiver.url, namespace_ids: [namespace.id] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    receiver.secrets.push(created.body.data.secret as string);
    const remember = async (content: string) => {
      const written = await api("POST", "/remember", { key, body: { namespace_id: namespace.id, content } });
      expect(written.status).toBe(201);
      return written.body.data.id as string;
    };
    const delivered = () =>
      receiver.messages.filter((m) => m.data.namespace_id === namespace.id).map((m) => m.data.data.memory_id);
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    let stopWorker: (() => Promise<void>) | undefined;
    try {
      const first = await remember("A fact written before the other transaction began.");
      // Held back by no other test file's transaction either: only the second waits, for this test's own.
      await settled();
      await other.query("BEGIN");
      await other.query("SELECT txid_current()");
      const second = await remember("A fact written while it is open.");
      // Both pending when the worker starts: the first is settled, the second waits for the other transaction.
      stopWorker = startJobWorker(webhookJobRunners, { pollIntervalMs: 60_000 });
      await vi.waitFor(() => expect(delivered()).toEqual([first]), { timeout: 5_000 });
      await other.query("COMMIT");
      await settledThenDelivered(() => expect(delivered()).toEqual([first, second]));
    } finally {
      await other.end();
      await stopWorker?.();
    }
  },
);

test("held-back deliveries are looked at again within the gathering window, then less often, up to 5 s", () => {
  const ago = (ms: number) => new Date(Date.now() - ms);
  expect(settleWaitMs(ago(0))).toBe(250);
  expect(settleWaitMs(ago(1_000))).toBe(250);
  expect(settleWaitMs(ago(8_000))).toBeCloseTo(1_000, -2);
  expect(settleWaitMs(ago(3_600_000))).toBe(5_000);
});
