// The record of a 2xx answer (lib/events/webhooks/record-delivered.ts): records made while one is being written go
// together in the next statement, each caller told when its own is committed, and a record waits for a send under
// way; a record names its organization, and one naming another organization's delivery changes nothing.
import { afterEach, beforeEach, expect, test } from "vitest";
import { db, Prisma, queryRows } from "@/lib/db";
import { recordDelivered, whileSending } from "@/lib/events/webhooks/record-delivered";
import { api } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";

// The endpoints point at loopback (what the operator setting allows); nothing runs their delivery jobs here.
beforeEach(() => {
  process.env.ALLOW_PRIVATE_OUTBOUND = "true";
});
afterEach(() => {
  delete process.env.ALLOW_PRIVATE_OUTBOUND;
});

/** A namespace with `endpoints` endpoints (never called: the deliveries stay pending) and one memory written. */
async function pendingDeliveries(name: string, endpoints: number) {
  const tenant = await createTenant(name);
  const namespace = await createNamespace(tenant.key);
  for (let i = 0; i < endpoints; i++) {
    const created = await api("POST", "/webhooks", {
      key: tenant.key,
      body: { url: `http://127.0.0.1:9/hook-${i}`, namespace_ids: [namespace.id] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
  const written = await api("POST", "/remember", {
    key: tenant.key,
    body: { namespace_id: namespace.id, content: "A fact." },
  });
  expect(written.status).toBe(201);
  const prisma = await db();
  const deliveries = await prisma.webhookDelivery.findMany({ where: { orgId: tenant.org.id } });
  expect(deliveries).toHaveLength(endpoints);
  return { orgId: tenant.org.id, deliveries };
}

const record = (orgId: string, deliveryId: string, status: number) =>
  recordDelivered({ orgId, deliveryId, status, latencyMs: 12, behind: false });

test("records made at once are each committed: delivered, one attempt, their own answer", async () => {
  const { orgId, deliveries } = await pendingDeliveries("Grouped Records", 3);
  await Promise.all(deliveries.map((delivery, i) => record(orgId, delivery.id, 200 + i)));
  const prisma = await db();
  const stored = await prisma.webhookDelivery.findMany({ where: { orgId }, orderBy: { responseStatus: "asc" } });
  expect(stored.map((d) => [d.id, d.status, d.attempts, d.responseStatus, d.latencyMs])).toEqual(
    deliveries.map((delivery, i) => [delivery.id, "delivered", 1, 200 + i, 12]),
  );
  expect(stored.every((d) => d.deliveredAt !== null)).toBe(true);
  // Recorded again (a late duplicate): a delivered one stays as it was.
  await record(orgId, deliveries[0].id, 299);
  const again = await prisma.webhookDelivery.findFirstOrThrow({ where: { id: deliveries[0].id } });
  expect([again.attempts, again.responseStatus]).toEqual([1, 200]);
});

test("a record waits for a send under way: the record made at its answer commits in the same transaction", async () => {
  const { orgId, deliveries } = await pendingDeliveries("Records Together", 2);
  let answer!: () => void;
  const secondSend = whileSending(() => new Promise<void>((resolve) => (answer = resolve))).then(() =>
    record(orgId, deliveries[1].id, 200),
  );
  const first = record(orgId, deliveries[0].id, 200);
  answer();
  await Promise.all([first, secondSend]);
  const rows = await queryRows<{ status: string; xmin: string }>(
    Prisma.sql`SELECT status, xmin::text AS xmin FROM webhook_deliveries WHERE org_id = ${orgId}`,
  );
  expect(rows.map((row) => row.status)).toEqual(["delivered", "delivered"]);
  expect(new Set(rows.map((row) => row.xmin)).size).toBe(1);
});

test("a record naming another organization's delivery changes nothing", async () => {
  const mine = await pendingDeliveries("Records Mine", 1);
  const theirs = await pendingDeliveries("Records Theirs", 1);
  await Promise.all([record(mine.orgId, theirs.deliveries[0].id, 200), record(mine.orgId, mine.deliveries[0].id, 204)]);
  const prisma = await db();
  const other = await prisma.webhookDelivery.findFirstOrThrow({ where: { id: theirs.deliveries[0].id } });
  expect([other.status, other.attempts, other.responseStatus]).toEqual(["pending", 0, null]);
  const own = await prisma.webhookDelivery.findFirstOrThrow({ where: { id: mine.deliveries[0].id } });
  expect([own.status, own.responseStatus]).toEqual(["delivered", 204]);
});
