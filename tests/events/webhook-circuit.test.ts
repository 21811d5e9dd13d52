// An endpoint's circuit breaker (lib/events/webhooks/endpoint-circuit.ts), with the server's own delivery workers:
// after WEBHOOK_CIRCUIT_FAILURES attempts in a row without an answer its deliveries wait without a request (and
// without holding one of its organization's workers) for a cooldown that doubles at each opening; one trial
// request closes it once the receiver answers, and the deliveries that waited go out in order.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { db } from "@/lib/db";
import { startWebhookDelivery } from "@/lib/events/webhooks/deliver";
import { Prisma } from "@/lib/generated/prisma/client";
import { api } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";
import { startReceiver } from "../helpers/webhook-receiver";

const cleanups: (() => Promise<void> | void)[] = [];
const SETTINGS = [
  "ALLOW_PRIVATE_OUTBOUND",
  "WEBHOOK_TIMEOUT_SECONDS",
  "WEBHOOK_RETRY_SCHEDULE",
  "WEBHOOK_CIRCUIT_FAILURES",
  "WEBHOOK_CIRCUIT_COOLDOWN_SECONDS",
];

beforeEach(() => {
  // The receivers are on loopback over http: what the operator setting allows (tests, private deployments).
  process.env.ALLOW_PRIVATE_OUTBOUND = "true";
  // A hanging receiver costs a second per attempt, and a failed delivery is due again at once: without a circuit,
  // an endpoint that never answers takes one of its organization's workers for good.
  process.env.WEBHOOK_TIMEOUT_SECONDS = "1";
  process.env.WEBHOOK_RETRY_SCHEDULE = Array.from({ length: 30 }, () => "0").join(",");
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const name of SETTINGS) delete process.env[name];
});

/** Accepts every request and never answers; counts the requests per path. */
async function hangingReceiver() {
  const sockets = new Set<Socket>();
  const state = { url: "", received: 0, byPath: new Map<string, number>() };
  const server = http.createServer((request) => {
    state.received += 1;
    state.byPath.set(request.url ?? "", (state.byPath.get(request.url ?? "") ?? 0) + 1);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return state;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function addEndpoint(key: string, url: string) {
  const created = await api("POST", "/webhooks", { key, body: { url, event_types: ["memory.created"] } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.data.endpoint.id as string, secret: created.body.data.secret as string };
}

async function endpointOf(key: string, id: string) {
  const shown = await api("GET", `/webhooks/${id}`, { key });
  expect(shown.status).toBe(200);
  return shown.body.data as {
    circuit_state: string;
    circuit_open_until: string | null;
    consecutive_failures: number;
    enabled: boolean;
  };
}

async function remember(key: string, namespaceId: string, content: string) {
  const remembered = await api("POST", "/remember", { key, body: { namespace_id: namespaceId, content } });
  expect(remembered.status).toBe(201);
  return remembered.body.data.id as string;
}

describe("an endpoint that keeps timing out", () => {
  const opens =
    "its circuit opens after N attempts without an answer, its deliveries wait without a request, and a trial " +
    "closes it once the receiver answers";
  test(
    opens,
    async () => {
      process.env.WEBHOOK_CIRCUIT_FAILURES = "3";
      process.env.WEBHOOK_CIRCUIT_COOLDOWN_SECONDS = "2";
      const receiver = await startReceiver();
      cleanups.push(() => receiver.stop());
      // Answers after a minute: each attempt times out after WEBHOOK_TIMEOUT_SECONDS.
      receiver.delayMs = 60_000;
      const tenant = await createTenant("Circuit");
      const namespace = await createNamespace(tenant.key);
      const endpoint = await addEndpoint(tenant.key, receiver.url);
      receiver.secrets.push(endpoint.secret);
      expect(await endpointOf(tenant.key, endpoint.id)).toMatchObject({
        circuit_state: "closed",
        circuit_open_until: null,
        consecutive_failures: 0,
      });
      cleanups.push(startWebhookDelivery());

      await remember(tenant.key, namespace.id, "The first note times out.");
      await until(() => receiver.requests.length >= 3, 15_000, "three attempts");
      await until(
        async () => (await endpointOf(tenant.key, endpoint.id)).circuit_state === "open",
        3_000,
        "the circuit opening",
      );
      const opened = await endpointOf(tenant.key, endpoint.id);
      expect(opened.consecutive_failures).toBe(3);
      const openUntil = new Date(opened.circuit_open_until!).getTime();
      expect(openUntil - Date.now()).toBeGreaterThan(500);
      expect(openUntil - Date.now()).toBeLessThanOrEqual(2_000);

      // While open, new events wait with the failed one: no request is made.
      await remember(tenant.key, namespace.id, "The second note waits.");
      await remember(tenant.key, namespace.id, "The third note waits too.");
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, openUntil - Date.now() - 200)));
      expect(receiver.requests.length).toBe(3);

      // The cooldown ends: one trial request, which times out too, opens the circuit again for twice as long.
      await until(() => receiver.requests.length >= 4, 5_000, "the trial request");
      await until(
        async () => (await endpointOf(tenant.key, endpoint.id)).consecutive_failures === 4,
        3_000,
        "the trial's failure",
      );
      const reopened = await endpointOf(tenant.key, endpoint.id);
      expect(reopened.circuit_state).toBe("open");
      const reopenFor = new Date(reopened.circuit_open_until!).getTime() - Date.now();
      expect(reopenFor).toBeGreaterThan(2_000);
      expect(reopenFor).toBeLessThanOrEqual(4_000);
      // The trial was one request: the two waiting deliveries were not sent beside it.
      expect(receiver.requests.length).toBe(4);

      // The receiver is fixed: the next trial is answered, the circuit closes and everything goes out in order.
      receiver.delayMs = 0;
      await until(() => receiver.requests.length >= 7, reopenFor + 5_000, "the deliveries after the trial");
      const ids = receiver.requests.map((request) => request.id);
      const [first] = ids;
      expect(ids.slice(0, 5)).toEqual([first, first, first, first, first]);
      expect(new Set(ids).size).toBe(3);
      expect(ids.slice(5)).toHaveLength(2);
      const closed = await endpointOf(tenant.key, endpoint.id);
      expect(closed).toMatchObject({ circuit_state: "closed", circuit_open_until: null, consecutive_failures: 0 });
      // Each delivery's attempts are the requests made for it: waiting behind the open circuit spent none.
      const deliveries = await api("GET", `/webhooks/${endpoint.id}/deliveries`, { key: tenant.key });
      expect(deliveries.status).toBe(200);
      const attempts = Object.fromEntries(
        deliveries.body.data.map((delivery: { event_id: string; attempts: number; status: string }) => [
          delivery.event_id,
          [delivery.status, delivery.attempts],
        ]),
      );
      expect(attempts[first]).toEqual(["delivered", 5]);
      for (const id of ids.slice(5)) expect(attempts[id]).toEqual(["delivered", 1]);
    },
    60_000,
  );

  const closes =
    "a test message that is answered, or a new URL, closes the circuit and the waiting deliveries go at once";
  test(
    closes,
    async () => {
      process.env.WEBHOOK_CIRCUIT_FAILURES = "1";
      process.env.WEBHOOK_CIRCUIT_COOLDOWN_SECONDS = "600";
      const receiver = await startReceiver();
      const other = await startReceiver();
      cleanups.push(
        () => receiver.stop(),
        () => other.stop(),
      );
      receiver.delayMs = 60_000;
      const tenant = await createTenant("Circuit reset");
      const namespace = await createNamespace(tenant.key);
      const endpoint = await addEndpoint(tenant.key, receiver.url);
      receiver.secrets.push(endpoint.secret);
      other.secrets.push(endpoint.secret);
      cleanups.push(startWebhookDelivery());
      const opened = async () => (await endpointOf(tenant.key, endpoint.id)).circuit_state === "open";

      await remember(tenant.key, namespace.id, "Lost in the void for now.");
      await until(opened, 10_000, "the circuit opening");
      // The receiver is fixed and a person sends a test: answered, it closes the circuit instead of ten minutes' wait.
      receiver.delayMs = 0;
      const tested = await api("POST", `/webhooks/${endpoint.id}/test`, { key: tenant.key });
      expect(tested.status).toBe(200);
      expect(tested.body.data).toMatchObject({ delivered: true });
      expect(await endpointOf(tenant.key, endpoint.id)).toMatchObject({ circuit_state: "closed" });
      // The receiver records a message before its answer: the attempt that hung, then the delivery.
      await until(() => receiver.ofType("memory.created").length === 2, 5_000, "the waiting delivery after the test");

      // It hangs again; a new URL is a new receiver: the waiting delivery goes to it now.
      receiver.delayMs = 60_000;
      await remember(tenant.key, namespace.id, "Lost again, until the URL changes.");
      await until(opened, 10_000, "the circuit opening again");
      const changed = await api("PATCH", `/webhooks/${endpoint.id}`, { key: tenant.key, body: { url: other.url } });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ circuit_state: "closed", consecutive_failures: 0 });
      await until(() => other.messages.length === 1, 5_000, "the delivery to the new URL");
    },
    60_000,
  );
});

describe("an organization's own endpoints", () => {
  const prompt = "A's healthy endpoint gets its event promptly while 16 of A's endpoints hang (their circuits open)";
  test(
    prompt,
    async () => {
      process.env.WEBHOOK_CIRCUIT_FAILURES = "2";
      process.env.WEBHOOK_CIRCUIT_COOLDOWN_SECONDS = "600";
      const dead = await hangingReceiver();
      const healthy = await startReceiver();
      cleanups.push(() => healthy.stop());
      const a = await createTenant("Hanging and healthy A");
      const namespace = await createNamespace(a.key);
      const hanging = [];
      for (let i = 0; i < 16; i++) hanging.push(await addEndpoint(a.key, `${dead.url}/hook-${i}`));
      // Made last: its job is claimed after every hanging endpoint's of the same event.
      const endpoint = await addEndpoint(a.key, healthy.url);
      healthy.secrets.push(endpoint.secret);
      cleanups.push(startWebhookDelivery());

      await remember(a.key, namespace.id, "Everyone hears of this one.");
      // Each hanging endpoint spends its two attempts (a second each, three at a time: A's share of the workers),
      // then waits, and the healthy one's turn comes (without the circuits, each would retry until disabled).
      await until(() => dead.received >= 32, 40_000, "two attempts at each hanging endpoint");
      await until(() => healthy.messages.length === 1, 10_000, "the first event at the healthy endpoint");

      const memoryId = await remember(a.key, namespace.id, "The healthy endpoint hears of this at once.");
      const written = Date.now();
      await until(() => healthy.messages.length === 2, 3_000, "the healthy endpoint's next event");
      const latencyMs = Date.now() - written;
      console.log(`A's healthy endpoint got its event in ${latencyMs} ms beside 16 open circuits`);
      expect(latencyMs).toBeLessThan(3_000);
      expect(healthy.messages[1].data.data).toMatchObject({ memory_id: memoryId });
      // The hanging endpoints got no request for it: their deliveries wait for their circuits.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(dead.received).toBe(32);
      for (let i = 0; i < 16; i++) expect(dead.byPath.get(`/hook-${i}`)).toBe(2);
      // Their circuits are open, as the API says.
      await until(
        async () => {
          const listed = await api("GET", "/webhooks?page_size=100", { key: a.key });
          return (
            listed.body.data.filter((shown: { circuit_state: string }) => shown.circuit_state === "open").length === 16
          );
        },
        1_000,
        "16 open circuits",
      );
    },
    90_000,
  );
});

describe("what the API shows of a circuit", () => {
  const disabled = "a disabled endpoint's circuit is closed, its failures forgotten; enabled again it stays closed";
  test(
    disabled,
    async () => {
      process.env.WEBHOOK_CIRCUIT_FAILURES = "1";
      process.env.WEBHOOK_CIRCUIT_COOLDOWN_SECONDS = "600";
      const receiver = await startReceiver();
      cleanups.push(() => receiver.stop());
      receiver.delayMs = 60_000;
      const tenant = await createTenant("Circuit disabled");
      const namespace = await createNamespace(tenant.key);
      const endpoint = await addEndpoint(tenant.key, receiver.url);
      receiver.secrets.push(endpoint.secret);
      cleanups.push(startWebhookDelivery());
      await remember(tenant.key, namespace.id, "Nobody answers this one.");
      await until(
        async () => (await endpointOf(tenant.key, endpoint.id)).circuit_state === "open",
        10_000,
        "the circuit opening",
      );

      const closed = { circuit_state: "closed", circuit_open_until: null, consecutive_failures: 0 };
      const off = await api("PATCH", `/webhooks/${endpoint.id}`, { key: tenant.key, body: { enabled: false } });
      expect(off.status).toBe(200);
      expect(off.body.data).toMatchObject({ enabled: false, ...closed });
      expect(await endpointOf(tenant.key, endpoint.id)).toMatchObject({ enabled: false, ...closed });
      const on = await api("PATCH", `/webhooks/${endpoint.id}`, { key: tenant.key, body: { enabled: true } });
      expect(on.body.data).toMatchObject({ enabled: true, ...closed });
    },
    30_000,
  );

  const tested = "an answered test message ends the run of failures before the circuit opened";
  test(
    tested,
    async () => {
      process.env.WEBHOOK_CIRCUIT_FAILURES = "5";
      // The failed delivery waits ten minutes: only the test can reset the count meanwhile.
      process.env.WEBHOOK_RETRY_SCHEDULE = "600";
      const receiver = await startReceiver();
      cleanups.push(() => receiver.stop());
      receiver.delayMs = 60_000;
      const tenant = await createTenant("Circuit test message");
      const namespace = await createNamespace(tenant.key);
      const endpoint = await addEndpoint(tenant.key, receiver.url);
      receiver.secrets.push(endpoint.secret);
      cleanups.push(startWebhookDelivery());
      await remember(tenant.key, namespace.id, "This attempt times out.");
      await until(
        async () => (await endpointOf(tenant.key, endpoint.id)).consecutive_failures === 1,
        10_000,
        "the attempt's failure",
      );

      receiver.delayMs = 0;
      const answered = await api("POST", `/webhooks/${endpoint.id}/test`, { key: tenant.key });
      expect(answered.body.data).toMatchObject({ delivered: true });
      expect(await endpointOf(tenant.key, endpoint.id)).toMatchObject({
        circuit_state: "closed",
        consecutive_failures: 0,
      });
    },
    30_000,
  );

  const idle = "a cooldown that ends with nothing to try shows closed; the next delivery is still a trial";
  test(
    idle,
    async () => {
      process.env.WEBHOOK_CIRCUIT_FAILURES = "1";
      process.env.WEBHOOK_CIRCUIT_COOLDOWN_SECONDS = "1";
      const receiver = await startReceiver();
      cleanups.push(() => receiver.stop());
      receiver.delayMs = 60_000;
      const tenant = await createTenant("Circuit idle");
      const namespace = await createNamespace(tenant.key);
      const endpoint = await addEndpoint(tenant.key, receiver.url);
      receiver.secrets.push(endpoint.secret);
      cleanups.push(startWebhookDelivery());
      await remember(tenant.key, namespace.id, "Nobody answers, and then nothing is left to send.");
      await until(
        async () => (await endpointOf(tenant.key, endpoint.id)).circuit_state === "open",
        10_000,
        "the circuit opening",
      );
      // What waited is gone (as when its namespace's events are erased): nothing is left to be the trial.
      const prisma = await db();
      await prisma.$executeRaw(
        Prisma.sql`DELETE FROM webhook_deliveries WHERE org_id = ${tenant.org.id} AND endpoint_id = ${endpoint.id}`,
      );
      await until(
        async () => (await endpointOf(tenant.key, endpoint.id)).circuit_state === "closed",
        5_000,
        "the idle circuit closing",
      );
      // Its failures are kept: a next event unanswered opens it again at once, for twice the cooldown.
      expect((await endpointOf(tenant.key, endpoint.id)).consecutive_failures).toBe(1);
      const before = receiver.requests.length;
      await remember(tenant.key, namespace.id, "The next event goes alone.");
      await until(
        async () => (await endpointOf(tenant.key, endpoint.id)).circuit_state === "open",
        5_000,
        "the circuit opening again",
      );
      const reopened = await endpointOf(tenant.key, endpoint.id);
      expect(reopened.consecutive_failures).toBe(2);
      expect(new Date(reopened.circuit_open_until!).getTime() - Date.now()).toBeGreaterThan(1_000);
      expect(receiver.requests.length).toBe(before + 1);
    },
    30_000,
  );
});

describe("a delivery answered while the database is busy", () => {
  const once = "a 2xx is recorded and not sent again when the circuit's update after it fails (a saturated database)";
  test(
    once,
    async () => {
      const receiver = await startReceiver();
      cleanups.push(() => receiver.stop());
      const tenant = await createTenant("Circuit update fails");
      const namespace = await createNamespace(tenant.key);
      const endpoint = await addEndpoint(tenant.key, receiver.url);
      receiver.secrets.push(endpoint.secret);
      const prisma = await db();
      // Two attempts timed out before: the next answer closes the circuit, and that statement fails, as one that
      // cannot get a connection in time would.
      await prisma.$executeRaw(
        Prisma.sql`UPDATE webhook_endpoints SET consecutive_failures = 2
                   WHERE org_id = ${tenant.org.id} AND id = ${endpoint.id}`,
      );
      await prisma.$executeRaw(
        Prisma.raw(`CREATE FUNCTION refuse_circuit_reset() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN RAISE EXCEPTION 'no connection in time'; END $$`),
      );
      await prisma.$executeRaw(
        Prisma.raw(`CREATE TRIGGER refuse_circuit_reset BEFORE UPDATE ON webhook_endpoints FOR EACH ROW
                    WHEN (OLD.consecutive_failures > 0 AND NEW.consecutive_failures = 0)
                    EXECUTE FUNCTION refuse_circuit_reset()`),
      );
      try {
        cleanups.push(startWebhookDelivery());
        const memoryId = await remember(tenant.key, namespace.id, "Delivered once, whatever the circuit says.");
        const delivered = async () => {
          const listed = await api("GET", `/webhooks/${endpoint.id}/deliveries`, { key: tenant.key });
          return listed.body.data.some((delivery: { status: string }) => delivery.status === "delivered");
        };
        await until(delivered, 5_000, "the delivery recorded as delivered");
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        expect(receiver.requests).toHaveLength(1);
        expect(receiver.messages[0].data.data).toMatchObject({ memory_id: memoryId });
      } finally {
        await prisma.$executeRaw(Prisma.raw(`DROP TRIGGER refuse_circuit_reset ON webhook_endpoints`));
        await prisma.$executeRaw(Prisma.raw(`DROP FUNCTION refuse_circuit_reset()`));
      }
    },
    30_000,
  );
});
