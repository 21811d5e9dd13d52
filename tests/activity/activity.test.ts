import { expect, test } from "vitest";
import { activityWritten, startActivity, type ActivityEntry } from "@/lib/activity/activity";
import { operationsSummary } from "@/lib/activity/overview";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import type { MemberPrincipal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { api } from "../helpers/api";
import { onPostgres } from "../helpers/postgres";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";

test("each memory operation writes an activity row: operation, namespace, key, identity, status, latency", async () => {
  const { org, key, keyId } = await createTenant();
  const ns = await createNamespace(key);
  const started = performance.now();
  const remembered = await api("POST", "/remember", {
    key,
    body: { namespace_id: ns.id, content: "Dana prefers morning meetings.", identity_id: "dana" },
  });
  await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "meetings", identity_id: "dana" } });
  await api("GET", `/memories/${remembered.body.data.id}`, { key });
  await api("POST", "/forget", { key, body: { namespace_id: ns.id, identity_id: "dana" } });
  const scoped = await createKey(org.id, { scopes: { team: "a" }, namespaceIds: [ns.id] });
  await api("POST", "/recall", {
    key: scoped.secret,
    body: { namespace_id: ns.id, query: "x", scopes: { team: "b" }, identity_id: "dana" },
  });
  await api("POST", "/recall", {
    key: "mgw_unknown_key_000000000000000000000000",
    body: { namespace_id: ns.id, query: "x" },
  });
  const elapsedMs = performance.now() - started;

  const prisma = await db();
  const rows = await prisma.activityLog.findMany({ where: { orgId: org.id }, orderBy: { createdAt: "asc" } });
  expect(rows.map((r) => [r.operation, r.status, r.identityId, r.namespaceId, r.apiKeyId])).toEqual([
    ["remember", 201, "dana", ns.id, keyId],
    ["recall", 200, "dana", ns.id, keyId],
    ["get_memory", 200, "dana", ns.id, keyId],
    ["forget", 200, "dana", ns.id, keyId],
    ["recall", 403, "dana", ns.id, scoped.id],
  ]);
  // Whole milliseconds each, measured (not all zero), and together no more than the calls took end to end
  // (they ran one after another; each row is rounded by at most half a millisecond).
  const latencies = rows.map((row) => row.latencyMs);
  for (const latency of latencies) expect(Number.isInteger(latency) && latency >= 0, `${latencies}`).toBe(true);
  const totalMs = latencies.reduce((sum, latency) => sum + latency, 0);
  expect(totalMs).toBeGreaterThan(0);
  expect(totalMs).toBeLessThanOrEqual(elapsedMs + rows.length / 2);
  expect(rows[3].details).toEqual({ deleted: 1 });
});

test("rows answered while an activity write is in flight are written together after it, every one", async () => {
  const { org, key, keyId } = await createTenant();
  const ns = await createNamespace(key);
  const entries = Array.from({ length: 25 }, (_, i) => ({
    orgId: org.id,
    apiKeyId: keyId,
    namespaceId: ns.id,
    identityId: i % 2 === 0 ? `person-${i}` : null,
    operation: "recall" as const,
    status: i === 24 ? 403 : 200,
    latencyMs: i,
    details: { matches: i },
  }));
  // All at once, as answers of concurrent requests: the first is written at once, the others queue behind it.
  const written = entries.map((entry) => startActivity().record(entry, { hold: false }));
  // A reader waits for what was answered before it, written or queued.
  const owner: MemberPrincipal = {
    kind: "member",
    orgId: org.id,
    userId: "owner",
    role: "owner",
    permissions: [...ROLE_PERMISSIONS.owner],
    scopes: {},
  };
  const summary = await operationsSummary(owner);
  expect(summary.total.count).toBe(25);
  await Promise.all(written);
  const prisma = await db();
  const rows = await prisma.activityLog.findMany({ where: { orgId: org.id } });
  expect(rows.map((row) => row.latencyMs).sort((a, b) => a - b)).toEqual(entries.map((entry) => entry.latencyMs));
  expect(new Set(rows.map((row) => row.id)).size).toBe(25);
  for (const row of rows) {
    expect(row.identityId).toBe(row.latencyMs % 2 === 0 ? `person-${row.latencyMs}` : null);
    expect(row.details).toEqual({ matches: row.latencyMs });
    expect(row.status).toBe(row.latencyMs === 24 ? 403 : 200);
  }
  const [rollup] = await prisma.$queryRaw<{ n: number; refused: number }[]>(
    Prisma.sql`SELECT sum(count)::int AS n, sum(client_errors)::int AS refused FROM activity_daily_rollups
               WHERE org_id = ${org.id}`,
  );
  expect(rollup).toEqual({ n: 25, refused: 1 });
});

test("a row the table refuses, written together with others, costs none of them theirs", async () => {
  const { org, keyId } = await createTenant();
  const other = await createTenant();
  const entry = (orgId: string, apiKeyId: string, identityId: string) => ({
    orgId,
    apiKeyId,
    identityId,
    operation: "recall" as const,
    status: 200,
    latencyMs: 1,
  });
  const record = (activity: ActivityEntry) => startActivity().record(activity, { hold: false });
  const written = [
    record(entry(org.id, keyId, "first")),
    // A text column takes no U+0000: this row's insert fails, in whichever batch it goes.
    record(entry(org.id, keyId, "bad\u0000id")),
    record(entry(org.id, keyId, "second")),
    record(entry(other.org.id, other.keyId, "another organization's")),
  ];
  const settled = await Promise.allSettled(written);
  expect(settled.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
  const prisma = await db();
  const rows = await prisma.activityLog.findMany({ where: { orgId: { in: [org.id, other.org.id] } } });
  expect(rows.map((row) => row.identityId).sort()).toEqual(["another organization's", "first", "second"]);
});

test("rows answered while other operations are under way wait; a reader or the last one writes them", async () => {
  const { org, keyId } = await createTenant();
  const prisma = await db();
  const count = () => prisma.activityLog.count({ where: { orgId: org.id } });
  const entry = (latencyMs: number): ActivityEntry => ({
    orgId: org.id,
    apiKeyId: keyId,
    operation: "recall",
    status: 200,
    latencyMs,
  });
  // Three operations under way; two end while the third still runs: their rows wait.
  const [first, second, third] = [startActivity(), startActivity(), startActivity()];
  const written = [first.record(entry(1), { hold: true }), second.record(entry(2), { hold: true })];
  expect(await count()).toBe(0);
  // A reader writes what is held and waits for it.
  await activityWritten();
  expect(await count()).toBe(2);
  await Promise.all(written);

  // Held again, then written by their timer although the third is still under way; dated when they were recorded.
  const recordedAt = Date.now();
  const held = [startActivity().record(entry(3), { hold: true }), startActivity().record(entry(4), { hold: true })];
  expect(await count()).toBe(2);
  await Promise.all(held);
  const writtenAfter = Date.now() - recordedAt;
  expect(await count()).toBe(4);
  const heldRows = await prisma.activityLog.findMany({ where: { orgId: org.id, latencyMs: { in: [3, 4] } } });
  expect(heldRows).toHaveLength(2);
  for (const row of heldRows) expect(Math.abs(row.createdAt.getTime() - recordedAt)).toBeLessThan(50);
  expect(writtenAfter).toBeGreaterThanOrEqual(200); // held for HOLD_MS (250 ms)

  // The last operation under way writes its row and those held, at once: on the embedded database, which runs
  // statements in the order they are sent, a read after its answer finds them.
  const fourth = startActivity();
  const beforeLast = fourth.record(entry(5), { hold: true });
  const last = third.record(entry(6), { hold: true });
  if (onPostgres()) await Promise.all([beforeLast, last]);
  const rows = await prisma.activityLog.findMany({ where: { orgId: org.id }, orderBy: { latencyMs: "asc" } });
  expect(rows.map((row) => row.latencyMs)).toEqual([1, 2, 3, 4, 5, 6]);
  await Promise.all([beforeLast, last]);
  // Without `hold` (PostgreSQL, where the answer waits for its row) nothing waits.
  const other = startActivity();
  await startActivity().record(entry(7), { hold: false });
  expect(await count()).toBe(7);
  await other.record(entry(8), { hold: false });
  expect(() => other.record(entry(9), { hold: false })).toThrow("recorded once");
});
