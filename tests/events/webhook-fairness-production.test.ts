// Webhook delivery is fair between organizations in the build users run (`npm start`, over HTTP; on the embedded
// database, or on PostgreSQL with MEMGW_TEST_DATABASE=postgres), with its own delivery workers and default
// settings (the 10 s timeout, WEBHOOK_DELIVERY_WORKERS 8, WEBHOOK_DELIVERY_WORKERS_PER_ORG 3): while 16, then 32
// of organization A's endpoints accept connections and never answer, B's healthy endpoint receives its event in
// under 3 s. One server for both cases: the second adds 16 endpoints to the first's.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";
import { organizationKeyByCli } from "../helpers/cli";
import { newDataDir } from "../helpers/embedded-template";
import { createTestDatabase, onPostgres } from "../helpers/postgres";
import type { ScratchDatabase } from "../helpers/postgres-databases";
import { freePort, startServer, type RunningServer, serverApi } from "../helpers/server";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

// The same build directory as the other files that start the production server (builds take turns).
process.env.MEMGW_DIST_DIR = ".next-test-server";

const API_KEY = "mgw_webhookFairnessProductionKey0123456789";
const dir = newDataDir("memgw-webhook-fairness-");
let database: ScratchDatabase | undefined;
let server: RunningServer;
const a = { key: API_KEY, namespace: "", endpoints: 0 };
const b = { key: "", namespace: "" };
let healthy: Receiver;
const dead = { url: "", held: 0, mostHeld: 0, received: 0 };
const sockets = new Set<Socket>();
let deadServer: http.Server;

/** The API of this file's server (serverApi). */
const api = (method: string, route: string, key: string, body?: unknown) => serverApi(server, method, route, key, body);

async function addEndpoint(key: string, url: string) {
  const created = await api("POST", "/webhooks", key, { url, event_types: ["memory.created"] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.secret as string;
}

async function until(condition: () => boolean, timeoutMs: number, what: string) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  buildIfNeeded({ quiet: true });
  if (onPostgres()) database = await createTestDatabase();
  const secrets = { KEY_PEPPER: "fairness-pepper", ENCRYPTION_KEY: "fairness-encryption-key" };
  // The CLI reaches PostgreSQL itself (with the server's pepper), the embedded database through the server.
  const databaseEnv: Record<string, string> = database ? { DATABASE_URL: database.url, ...secrets } : { DATA_DIR: dir };
  server = await startServer({
    ...databaseEnv,
    ...secrets,
    PORT: String(await freePort()),
    NEXTAUTH_SECRET: "fairness-nextauth-secret",
    MEMGW_INIT_ORG_NAME: "Hanging Inc",
    MEMGW_INIT_USER_EMAIL: "ops@hanging.example",
    MEMGW_INIT_USER_PASSWORD: "a long operator password",
    MEMGW_INIT_API_KEY: API_KEY,
    // The receivers are on loopback over http: what the operator setting allows (tests, private deployments).
    ALLOW_PRIVATE_OUTBOUND: "true",
  });

  // A's receiver accepts every request and never answers; it counts the requests it holds at once.
  deadServer = http.createServer((request) => {
    dead.received += 1;
    dead.held += 1;
    dead.mostHeld = Math.max(dead.mostHeld, dead.held);
    request.on("close", () => (dead.held -= 1));
  });
  deadServer.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => deadServer.listen(0, "127.0.0.1", resolve));
  dead.url = `http://127.0.0.1:${(deadServer.address() as AddressInfo).port}`;
  healthy = await startReceiver();

  const namespaceA = await api("POST", "/namespaces", a.key, { name: "hanging" });
  expect(namespaceA.status).toBe(201);
  a.namespace = namespaceA.body.data.id;
  b.key = (
    await organizationKeyByCli(
      { org: "Healthy Inc", key: "healthy" },
      "NAMESPACE_WRITE,NAMESPACE_MANAGE,WEBHOOK_MANAGE",
      databaseEnv,
    )
  ).secret;
  const namespaceB = await api("POST", "/namespaces", b.key, { name: "healthy" });
  expect(namespaceB.status).toBe(201);
  b.namespace = namespaceB.body.data.id;
  healthy.secrets.push(await addEndpoint(b.key, healthy.url));
}, 900_000);

afterAll(async () => {
  await server?.stop();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => (deadServer ? deadServer.close(resolve) : resolve(undefined)));
  await healthy?.stop();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("while A's endpoints hang (production build)", () => {
  test.each([16, 32])(
    "B's healthy endpoint receives its event in under 3 s while %i of A's endpoints never answer",
    async (hanging) => {
      while (a.endpoints < hanging) await addEndpoint(a.key, `${dead.url}/hook-${a.endpoints++}`);
      const receivedBefore = dead.received;
      const remembered = await api("POST", "/remember", a.key, {
        namespace_id: a.namespace,
        content: `Into the void, ${hanging}.`,
      });
      expect(remembered.status).toBe(201);
      // A's event goes to each of its endpoints: its share of the workers (3) now hangs on them.
      await until(() => dead.held >= 3 && dead.received > receivedBefore, 10_000, "A's deliveries under way");

      const before = healthy.ofType("memory.created").length;
      const written = await api("POST", "/remember", b.key, {
        namespace_id: b.namespace,
        content: `B's note ${hanging}.`,
      });
      expect(written.status).toBe(201);
      // From the event's commit (the remember's answer) to its delivery.
      const start = Date.now();
      await until(() => healthy.ofType("memory.created").length === before + 1, 3_000, "B's delivery");
      const latencyMs = Date.now() - start;
      console.log(`[webhooks] B's event delivered in ${latencyMs} ms while ${hanging} of A's endpoints hung`);
      expect(latencyMs).toBeLessThan(3_000);
      expect(healthy.ofType("memory.created").at(-1)!.data.namespace_id).toBe(b.namespace);
      // A never held more than its share of the server's workers.
      expect(dead.mostHeld).toBe(3);
    },
    60_000,
  );
});
