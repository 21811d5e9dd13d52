import { expect, test } from "vitest";
import { db } from "@/lib/db";
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
