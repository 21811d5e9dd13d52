// The organization overview (/{org}): its figures come from the daily rollup that a trigger keeps from the
// activity rows. Here a known set of activity rows is inserted and every figure checked against it, for an
// owner (the whole organization) and a member (the namespaces granted to them); the getting-started
// checklist is followed step by step through the real API and MCP endpoint.
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, test } from "vitest";
import { gettingStarted, operationsSummary, topIdentities, topNamespaces } from "@/lib/activity/overview";
import { chartStart, dailyOperations } from "@/lib/activity/queries";
import { histogramPercentile, LATENCY_BUCKETS_MS, latencyBucket } from "@/lib/activity/rollup";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import type { MemberPrincipal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { inviteMember } from "@/lib/orgs/members";
import { createOrganization } from "@/lib/orgs/organizations";
import { api, routeRequest } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";
import { Prisma } from "@/lib/generated/prisma/client";

function principal(orgId: string, userId: string, role: MemberPrincipal["role"]): MemberPrincipal {
  return { kind: "member", orgId, userId, role, permissions: [...ROLE_PERMISSIONS[role]], scopes: {} };
}

/** Noon (UTC) `daysAgo` days ago; today is now. */
function dayAt(daysAgo: number): Date {
  if (daysAgo === 0) return new Date();
  const day = chartStart(daysAgo + 1);
  return new Date(day.getTime() + 12 * 3_600_000);
}
const dayKey = (daysAgo: number) => dayAt(daysAgo).toISOString().slice(0, 10);

interface Row {
  namespaceId: string | null;
  operation: string;
  latencyMs: number;
  status?: number;
  identityId?: string;
  daysAgo?: number;
  mcp?: boolean;
}

async function insertActivity(orgId: string, apiKeyId: string, rows: Row[]) {
  const prisma = await db();
  // One statement: the trigger aggregates the rows of a statement together.
  await prisma.activityLog.createMany({
    data: rows.map((row) => ({
      id: newId("act"),
      orgId,
      apiKeyId,
      namespaceId: row.namespaceId,
      identityId: row.identityId ?? null,
      operation: row.operation,
      status: row.status ?? 200,
      latencyMs: row.latencyMs,
      details: row.mcp ? { transport: "mcp" } : {},
      createdAt: dayAt(row.daysAgo ?? 0),
    })),
  });
}

describe("the overview's figures, from known activity rows", async () => {
  const { org, key, keyId } = await createTenant("Overview figures");
  const a = await createNamespace(key, { name: "alpha" });
  const b = await createNamespace(key, { name: "beta" });
  const owner = await inviteMember({ orgId: org.id, email: `owner-${a.id}@example.com`, role: "owner" }, SYSTEM_ACTOR);
  const member = await inviteMember(
    { orgId: org.id, email: `member-${a.id}@example.com`, role: "member" },
    SYSTEM_ACTOR,
  );
  expect((await api("POST", `/namespaces/${a.id}/grants`, { key, body: { user_id: member.id } })).status).toBe(201);
  const asOwner = principal(org.id, owner.id, "owner");
  const asMember = principal(org.id, member.id, "member");

  // alpha, today: ten recalls (one refused, one failed), six for dana and four for eli.
  const alphaRecalls = [1, 2, 2, 3, 3, 3, 5, 8, 120, 700];
  await insertActivity(org.id, keyId, [
    ...alphaRecalls.map((latencyMs, i) => ({
      namespaceId: a.id,
      operation: "recall",
      latencyMs,
      status: latencyMs === 120 ? 404 : latencyMs === 700 ? 500 : 200,
      identityId: i < 6 ? "dana" : "eli",
    })),
    // alpha, two days ago: three remembers for dana.
    ...[20, 20, 20].map((latencyMs) => ({
      namespaceId: a.id,
      operation: "remember",
      latencyMs,
      status: 201,
      identityId: "dana",
      daysAgo: 2,
    })),
    // alpha, 40 days ago: outside every 30-day figure.
    { namespaceId: a.id, operation: "ask", latencyMs: 9, identityId: "old", daysAgo: 40 },
    // A refusal before any namespace was resolved: the organization's, never a member's.
    { namespaceId: null, operation: "recall", latencyMs: 4, status: 403 },
  ]);
  // beta, yesterday: five recalls for fay, one of them over MCP (a second statement: the upsert path).
  await insertActivity(
    org.id,
    keyId,
    [50, 50, 50, 50, 50].map((latencyMs, i) => ({
      namespaceId: b.id,
      operation: "recall",
      latencyMs,
      identityId: "fay",
      daysAgo: 1,
      mcp: i === 0,
    })),
  );

  test("operations per day and operation: the owner's whole organization, the member's namespace", async () => {
    const counts = async (who: MemberPrincipal) =>
      Object.fromEntries(
        (await dailyOperations(who)).filter((d) => Object.keys(d.counts).length).map((d) => [d.day, d.counts]),
      );
    expect(await counts(asOwner)).toEqual({
      [dayKey(2)]: { remember: 3 },
      [dayKey(1)]: { recall: 5 },
      [dayKey(0)]: { recall: 11 },
    });
    expect(await counts(asMember)).toEqual({ [dayKey(2)]: { remember: 3 }, [dayKey(0)]: { recall: 10 } });
    // One namespace, and the identity filter (read from the activity rows themselves) agree with it.
    expect((await dailyOperations(asOwner, { namespaceId: b.id })).at(-2)?.counts).toEqual({ recall: 5 });
    expect((await dailyOperations(asOwner, { identityId: "dana" })).at(-1)?.counts).toEqual({ recall: 6 });
    expect((await dailyOperations(asOwner, {}, 30)).length).toBe(30);
  });

  test("p50/p95 latency and error rates per operation", async () => {
    const summary = await operationsSummary(asOwner);
    const recall = summary.operations.find((s) => s.operation === "recall");
    // 16 recalls: 1 2 2 3 3 3 4 5 8 50 50 50 50 50 120 700 → the 8th is 5 ms, the 16th 700 ms (bucket 600–799).
    expect(recall).toEqual({
      operation: "recall",
      count: 16,
      clientErrors: 2,
      serverErrors: 1,
      errorRate: 3 / 16,
      p50: { fromMs: 5, toMs: 5 },
      p95: { fromMs: 600, toMs: 799 },
    });
    expect(summary.operations.map((s) => s.operation)).toEqual(["recall", "remember"]);
    expect(summary.operations[1]).toMatchObject({ count: 3, errorRate: 0, p50: { fromMs: 20, toMs: 24 } });
    expect(summary.total).toMatchObject({ count: 19, clientErrors: 2, serverErrors: 1 });

    const mine = await operationsSummary(asMember);
    expect(mine.operations.find((s) => s.operation === "recall")).toMatchObject({
      count: 10,
      clientErrors: 1,
      serverErrors: 1,
      errorRate: 0.2,
      p50: { fromMs: 3, toMs: 3 },
      p95: { fromMs: 600, toMs: 799 },
    });
  });

  test("the most active namespaces and identities, within what each person may see", async () => {
    expect(await topNamespaces(asOwner)).toEqual([
      { id: a.id, name: "alpha", operations: 13 },
      { id: b.id, name: "beta", operations: 5 },
    ]);
    expect(await topNamespaces(asMember)).toEqual([{ id: a.id, name: "alpha", operations: 13 }]);
    const owners = await topIdentities(asOwner);
    expect(owners.identities).toEqual([
      { identityId: "dana", operations: 9 },
      { identityId: "fay", operations: 5 },
      { identityId: "eli", operations: 4 },
    ]);
    expect(owners.sampled).toBe(19);
    expect((await topIdentities(asMember)).identities).toEqual([
      { identityId: "dana", operations: 9 },
      { identityId: "eli", operations: 4 },
    ]);
    expect((await topIdentities(asOwner, 1)).identities).toEqual([{ identityId: "dana", operations: 9 }]);
  });

  test("the rollup holds exactly what the activity rows say, and another organization sees none of it", async () => {
    const prisma = await db();
    const [rollup] = await prisma.$queryRaw<{ n: number; mcp: number }[]>(
      Prisma.sql`SELECT sum(count)::int AS n, sum(mcp_count)::int AS mcp FROM activity_daily_rollups WHERE org_id
          = ${org.id}`,
    );
    expect(rollup).toEqual({ n: await prisma.activityLog.count({ where: { orgId: org.id } }), mcp: 1 });
    const other = await createOrganization("Overview other", SYSTEM_ACTOR);
    const stranger = principal(other.id, owner.id, "owner");
    expect((await operationsSummary(stranger)).total.count).toBe(0);
    expect(await topNamespaces(stranger)).toEqual([]);
    expect((await topIdentities(stranger)).identities).toEqual([]);
  });

  test("the member's checklist is bounded too: MCP was used in beta only", async () => {
    expect(await gettingStarted(asOwner)).toMatchObject({ remembered: true, mcpConnected: true });
    expect(await gettingStarted(asMember)).toMatchObject({
      // The organization's keys are not the member's (issue 32): theirs alone tick it.
      keyCreated: false,
      namespaceCreated: true,
      remembered: true,
      mcpConnected: false,
      firstNamespaceId: a.id,
    });
  });
});

describe("the latency histogram", () => {
  test("the migration's trigger buckets latencies with the same bounds as the code", () => {
    const sql = fs.readFileSync(
      path.join(import.meta.dirname, "../../prisma/migrations/20261123020000_activity_daily_rollups/migration.sql"),
      "utf8",
    );
    const arrays = [...sql.matchAll(/width_bucket\(latency_ms, ARRAY\[([\d, ]+)\]\)/g)].map((m) => m[1]);
    expect(arrays.length).toBe(2);
    for (const array of arrays) expect(array.split(", ").map(Number)).toEqual(LATENCY_BUCKETS_MS);
    expect(sql.match(/generate_series\(1, (\d+)\)/g)?.every((s) => s.endsWith(`${LATENCY_BUCKETS_MS.length})`))).toBe(
      true,
    );
  });

  test("buckets and nearest-rank percentiles", () => {
    expect([0, 1, 9, 10, 11, 12, 199, 200, 99_999, 100_000, 5_000_000].map(latencyBucket)).toEqual([
      1, 2, 10, 11, 11, 12, 23, 24, 50, 51, 51,
    ]);
    const buckets = LATENCY_BUCKETS_MS.map(() => 0);
    expect(histogramPercentile(buckets, 0.5)).toBeNull();
    buckets[latencyBucket(3) - 1] = 99;
    buckets[latencyBucket(150_000) - 1] = 1;
    expect(histogramPercentile(buckets, 0.99)).toEqual({ fromMs: 3, toMs: 3 });
    expect(histogramPercentile(buckets, 1)).toEqual({ fromMs: 100_000, toMs: null });
  });
});

describe("the getting-started checklist ticks from real data", () => {
  test("key → namespace → first remember → MCP", async () => {
    const org = await createOrganization("Checklist", SYSTEM_ACTOR);
    const owner = await inviteMember({ orgId: org.id, email: `c-${org.id}@example.com`, role: "owner" }, SYSTEM_ACTOR);
    const me = principal(org.id, owner.id, "owner");
    const none = { keyCreated: false, namespaceCreated: false, remembered: false, mcpConnected: false };
    expect(await gettingStarted(me)).toEqual({ ...none, firstNamespaceId: null });

    const key = (await createKey(org.id)).secret;
    expect(await gettingStarted(me)).toMatchObject({ ...none, keyCreated: true });

    const ns = await createNamespace(key);
    expect(await gettingStarted(me)).toEqual({
      ...none,
      keyCreated: true,
      namespaceCreated: true,
      firstNamespaceId: ns.id,
    });

    // A remember refused (no content) is not a first memory.
    expect((await api("POST", "/remember", { key, body: { namespace_id: ns.id } })).status).toBe(400);
    expect(await gettingStarted(me)).toMatchObject({ remembered: false });
    const stored = await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "Ada likes tea." } });
    expect(stored.status).toBe(201);
    expect(await gettingStarted(me)).toMatchObject({ remembered: true, mcpConnected: false });

    // Plain HTTP says nothing of its transport; an MCP tool call says "mcp".
    const client = new Client({ name: "overview-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://gateway.test/api/v1/mcp/${ns.id}`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
        fetch: (input, init) => routeRequest(new Request(input, init)),
      }),
    );
    const result = await client.callTool({ name: "recall", arguments: { query: "tea" } });
    expect(result.isError).toBeFalsy();
    await client.close();
    expect(await gettingStarted(me)).toEqual({
      keyCreated: true,
      namespaceCreated: true,
      remembered: true,
      mcpConnected: true,
      firstNamespaceId: ns.id,
    });
    const prisma = await db();
    const rows = await prisma.activityLog.findMany({ where: { orgId: org.id }, orderBy: { createdAt: "asc" } });
    expect(rows.map((row) => [row.operation, row.status, (row.details as { transport?: string }).transport])).toEqual([
      ["remember", 400, undefined],
      ["remember", 201, undefined],
      ["recall", 200, "mcp"],
    ]);
  });

  test("a memory counts as remembered even without activity (written before the log kept it)", async () => {
    const { org, key } = await createTenant("Checklist memory");
    const ns = await createNamespace(key);
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "Bo drinks coffee." } });
    const prisma = await db();
    await prisma.$executeRaw(Prisma.sql`DELETE FROM activity_daily_rollups WHERE org_id = ${org.id}`);
    const owner = await inviteMember({ orgId: org.id, email: `m-${org.id}@example.com`, role: "owner" }, SYSTEM_ACTOR);
    expect(await gettingStarted(principal(org.id, owner.id, "owner"))).toMatchObject({ remembered: true });
  });
});
