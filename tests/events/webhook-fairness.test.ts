// Webhook delivery is fair between organizations (lib/events/webhooks/deliver.ts, lib/jobs/queue.ts claimJob):
// while organization A's endpoints accept connections and never answer, A's deliveries hold at most its share of
// the delivery workers (WEBHOOK_DELIVERY_WORKERS_PER_ORG, across instances), and B's healthy endpoint receives its
// events in well under the 3 s target, with the server's own delivery workers and its 10 s timeout.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { setting } from "@/lib/config";
import { startWebhookDelivery } from "@/lib/events/webhooks/deliver";
import { api } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";
import { startReceiver } from "../helpers/webhook-receiver";

const cleanups: (() => Promise<void>)[] = [];

beforeEach(() => {
  // The receivers are on loopback over http: what the operator setting allows (tests, private deployments).
  process.env.ALLOW_PRIVATE_OUTBOUND = "true";
  // A's failed deliveries are not tried again during the test.
  process.env.WEBHOOK_RETRY_SCHEDULE = "600,600";
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  delete process.env.ALLOW_PRIVATE_OUTBOUND;
  delete process.env.WEBHOOK_RETRY_SCHEDULE;
});

/** Accepts every request and never answers; counts the requests it holds at once (and the most it held). */
async function hangingReceiver() {
  const sockets = new Set<Socket>();
  const state = { url: "", held: 0, mostHeld: 0, received: 0 };
  const server = http.createServer((request) => {
    state.received += 1;
    state.held += 1;
    state.mostHeld = Math.max(state.mostHeld, state.held);
    request.on("close", () => (state.held -= 1));
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

async function until(condition: () => boolean, timeoutMs: number, what: string) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function addEndpoint(key: string, url: string) {
  const created = await api("POST", "/webhooks", { key, body: { url, event_types: ["memory.created"] } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.secret as string;
}

describe("while A's endpoints hang", () => {
  test.each([16, 32])(
    "B's healthy endpoint receives its event in under 3 s while %i of A's endpoints never answer",
    async (hanging) => {
      const dead = await hangingReceiver();
      const healthy = await startReceiver();
      cleanups.push(() => healthy.stop());
      const a = await createTenant(`Hanging A ${hanging}`);
      const b = await createTenant(`Healthy B ${hanging}`);
      const nsA = await createNamespace(a.key);
      const nsB = await createNamespace(b.key);
      for (let i = 0; i < hanging; i++) await addEndpoint(a.key, `${dead.url}/hook-${i}`);
      healthy.secrets.push(await addEndpoint(b.key, healthy.url));
      cleanups.push(startWebhookDelivery());

      // A's event goes to each of its endpoints: as many deliveries as A's share of the workers now hang.
      const perOrg = setting("WEBHOOK_DELIVERY_WORKERS_PER_ORG");
      expect(perOrg).toBeLessThan(setting("WEBHOOK_DELIVERY_WORKERS"));
      await api("POST", "/remember", { key: a.key, body: { namespace_id: nsA.id, content: "Sent to the void." } });
      await until(() => dead.held === perOrg, 10_000, "A's deliveries under way");

      const remembered = await api("POST", "/remember", {
        key: b.key,
        body: { namespace_id: nsB.id, content: "B's note arrives at once." },
      });
      expect(remembered.status).toBe(201);
      // From the event's commit (the remember's answer) to its delivery.
      const written = Date.now();
      await until(() => healthy.ofType("memory.created").length === 1, 3_000, "B's delivery");
      const latencyMs = Date.now() - written;
      console.log(`B's event was delivered in ${latencyMs} ms while ${hanging} of A's endpoints hung`);
      expect(latencyMs).toBeLessThan(3_000);
      expect(healthy.messages[0].data.namespace_id).toBe(nsB.id);
      // A never held more than its share, whatever it had pending.
      expect(dead.mostHeld).toBe(perOrg);
      expect(dead.received).toBe(perOrg);
    },
    60_000,
  );
});
