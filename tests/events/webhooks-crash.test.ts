// Webhook delivery across a crash, on the production build (`npm start`) over HTTP: the server is killed with
// SIGKILL while a receiver holds a delivery unanswered, started again on the same database, and every event
// arrives; the only one sent twice is the one whose first request got no 2xx answer before the crash. On the
// embedded database always; on PostgreSQL with TEST_DATABASE_URL.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";
import { newDataDir } from "../helpers/embedded-template";
import { createTestDatabase, postgresTest } from "../helpers/postgres";
import { freePort, startServer, type RunningServer } from "../helpers/server";

// The same build directory as tests/startup/server.test.ts (builds take turns), never a developer's .next.
process.env.MEMGW_DIST_DIR = ".next-test-server";

const API_KEY = "mgw_webhookCrashBootstrapKey0123456789abcd";
const MEMORIES = 30;
/** The receiver kills the server while it holds this message (counted from 1) unanswered. */
const KILL_AT = 8;

const cleanups: (() => Promise<void>)[] = [];
beforeAll(() => {
  buildIfNeeded({ quiet: true });
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

interface Request {
  id: string;
  /** The receiver answered 2xx and the answer was written out. */
  answered: boolean;
}

async function startReceiver(onMessage: (count: number) => "kill" | "answer") {
  const requests: Request[] = [];
  const secrets: string[] = [];
  let verifyFailures = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      const headers = Object.fromEntries(
        ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, String(request.headers[name])]),
      );
      try {
        new Webhook(secrets[0]).verify(body, headers);
      } catch {
        verifyFailures += 1;
      }
      const entry: Request = { id: headers["webhook-id"], answered: false };
      requests.push(entry);
      if (onMessage(requests.length) === "kill") return; // never answered: the server dies waiting
      // A receiver that takes a moment: the server has several deliveries under way when it is killed.
      setTimeout(() => {
        response.statusCode = 200;
        response.end(() => (entry.answered = true));
      }, 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    requests,
    secrets,
    verifyFailures: () => verifyFailures,
  };
}

async function until(check: () => boolean, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function crashDuringDelivery(env: Record<string, string>) {
  let server: RunningServer | undefined;
  // The server is killed once both have happened: the receiver holds the message, and the remember's answer has
  // arrived (deliveries may begin before that answer is written). Deliveries keep the memories' order, so none
  // after the held one is sent meanwhile.
  let receiverHolds!: () => void;
  const held = new Promise<void>((resolve) => (receiverHolds = resolve));
  const receiver = await startReceiver((count) => {
    if (count !== KILL_AT) return "answer";
    receiverHolds();
    return "kill";
  });
  const port = await freePort();
  const start = async () => {
    const started = await startServer({
      PORT: String(port),
      KEY_PEPPER: "webhook-crash-pepper",
      ENCRYPTION_KEY: "webhook-crash-encryption-key",
      MEMGW_INIT_ORG_NAME: "Crash Hooks",
      MEMGW_INIT_USER_EMAIL: "ops@hooks.example",
      MEMGW_INIT_USER_PASSWORD: "a long operator password",
      MEMGW_INIT_API_KEY: API_KEY,
      EMBEDDING_WORKERS: "1",
      ALLOW_PRIVATE_OUTBOUND: "true",
      WEBHOOK_RETRY_SCHEDULE: "1,1,1,1,1,1,1,1,1,1",
      ...env,
    });
    cleanups.push(() => started.stop());
    return started;
  };
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${server!.base}/api/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  server = await start();
  const namespace = await call("POST", "/namespaces", { name: "hooked" });
  expect(namespace.status).toBe(201);
  const endpoint = await call("POST", "/webhooks", {
    url: receiver.url,
    namespace_ids: [namespace.body.data.id],
    event_types: ["memory.created"],
  });
  expect(endpoint.status).toBe(201);
  receiver.secrets.push(endpoint.body.data.secret);
  const memoryIds: string[] = [];
  const remember = await call("POST", "/remember", {
    namespace_id: namespace.body.data.id,
    memories: Array.from({ length: MEMORIES }, (_, i) => ({ content: `Parcel ${i} left at dock ${i % 5}.` })),
  });
  expect(remember.status).toBe(201);
  memoryIds.push(...remember.body.data.map((memory: { id: string }) => memory.id));

  await held;
  process.kill(server.pid, "SIGKILL");
  await server.exited;
  expect(receiver.requests.length).toBe(KILL_AT);
  server = await start();
  const delivered = () => new Set(receiver.requests.filter((r) => r.answered).map((r) => r.id));
  await until(() => delivered().size === MEMORIES, `all ${MEMORIES} events are delivered after the restart`);

  const log = await call("GET", `/webhooks/${endpoint.body.data.endpoint.id}/deliveries?page_size=100`);
  expect(log.body.data.every((delivery: { status: string }) => delivery.status === "delivered")).toBe(true);
  expect(
    log.body.data
      .map((d: { payload: { data: { data: { memory_id: string } } } }) => d.payload.data.data.memory_id)
      .sort(),
  ).toEqual([...memoryIds].sort());
  // Sent twice: only what had no 2xx answer before the crash.
  const counts = new Map<string, Request[]>();
  for (const request of receiver.requests) counts.set(request.id, [...(counts.get(request.id) ?? []), request]);
  const twice = [...counts.entries()].filter(([, requests]) => requests.length > 1);
  for (const [, requests] of twice) expect(requests[0].answered).toBe(false);
  expect(twice.map(([id]) => id)).toContain(receiver.requests[KILL_AT - 1].id);
  expect(receiver.verifyFailures()).toBe(0);
  // In order: the first 2xx of each event follows the memories' order.
  const firstDelivered = receiver.requests.filter((r) => r.answered).map((r) => r.id);
  const events = log.body.data
    .slice()
    .reverse()
    .map((d: { event_id: string }) => d.event_id);
  expect([...new Set(firstDelivered)]).toEqual(events);
}

test("embedded: kill -9 while a delivery waits; after a restart every event arrives, only that one twice", async () => {
  const dataDir = newDataDir("memgw-webhook-crash-");
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  await crashDuringDelivery({ DATA_DIR: dataDir, DATABASE_URL: "" });
}, 300_000);

postgresTest(
  "PostgreSQL: the same across kill -9",
  async () => {
    const database = await createTestDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-webhook-crash-pg-"));
    cleanups.push(async () => {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    await crashDuringDelivery({ DATA_DIR: dataDir, DATABASE_URL: database.url });
  },
  300_000,
);
