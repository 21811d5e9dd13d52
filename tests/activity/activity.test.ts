import { expect, test } from "vitest";
import { recordActivity } from "@/lib/activity/activity";
import { operationsSummary } from "@/lib/activity/overview";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import type { MemberPrincipal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { api } from "../helpers/api";
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
  const written = entries.map((entry) => recordActivity(entry));
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
  const written = [
    recordActivity(entry(org.id, keyId, "first")),
    // A text column takes no U+0000: this row's insert fails, in whichever batch it goes.
    recordActivity(entry(org.id, keyId, "bad\u0000id")),
    recordActivity(entry(org.id, keyId, "second")),
    recordActivity(entry(other.org.id, other.keyId, "another organization's")),
  ];
  const settled = await Promise.allSettled(written);
  expect(settled.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
  const prisma = await db();
  const rows = await prisma.activityLog.findMany({ where: { orgId: { in: [org.id, other.org.id] } } });
  expect(rows.map((row) => row.identityId).sort()).toEqual(["another organization's", "first", "second"]);
});
