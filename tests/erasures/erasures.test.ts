// Erasure receipts (issue 16): forget across every namespace a key may write (all_namespaces), a receipt for
// every forget (API, MCP, the console's memory deletion) and every namespace deletion — written with the
// deletion, counting what the tables lost, never holding content — readable at GET /erasures (bounded by
// organization and by the namespaces one may use) and in the console's audit log.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, test, vi } from "vitest";
import { api, routeRequest } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";
import { rememberAll, storedCounts, termStatisticsConsistent } from "../helpers/memory";
import { Prisma } from "@/lib/generated/prisma/client";

const getServerSession = vi.hoisted(() => vi.fn());
vi.mock("next-auth", () => ({ getServerSession }));
vi.mock("@/lib/console/auth", () => ({ authOptions: async () => ({}) }));

const { db } = await import("@/lib/db");
const { SYSTEM_ACTOR } = await import("@/lib/audit/audit");
const { memberPrincipal } = await import("@/lib/auth/principal");
const { inviteMember } = await import("@/lib/orgs/members");
const { deleteMemory } = await import("@/lib/memory/forget/delete-memory");
const { forgetIdentity } = await import("@/lib/memory/forget/identities");
const { default: AuditLogPage } = await import("@/app/[org]/audit/page");

const unique = () => Math.random().toString(36).slice(2, 8);

/** Long enough to be split into several chunks: receipts count chunks, not only memories. */
function longText(topic: string) {
  return Array.from({ length: 70 }, (_, i) => `Sentence ${i} of the ${topic} notes says something distinct.`).join(" ");
}

/** Chunks stored for these memories, now. */
async function chunksOf(memoryIds: string[]) {
  const prisma = await db();
  const [row] = await prisma.$queryRaw<{ n: number }[]>(
    Prisma.sql`SELECT count(*)::int AS n FROM memory_chunks WHERE memory_id = ANY(${memoryIds}::text[])`,
  );
  return row.n;
}

async function memoriesLeft(memoryIds: string[]) {
  const prisma = await db();
  return prisma.memory.count({ where: { id: { in: memoryIds } } });
}

async function erasures(key: string, query = "") {
  const response = await api("GET", `/erasures${query}`, { key });
  expect(response.status).toBe(200);
  return response.body as { data: any[]; pagination: { total: number } };
}

/**
 * Organization A: three namespaces with alice's memories (one multi-chunk in each), bob's in the first, and a
 * key granted only the first two. Organization B: alice's memories too (the same identity string).
 */
async function world() {
  const a = await createTenant(`Erasures A ${unique()}`);
  const b = await createTenant(`Erasures B ${unique()}`);
  const [ns1, ns2, ns3] = [
    await createNamespace(a.key, { name: `one-${unique()}` }),
    await createNamespace(a.key, { name: `two-${unique()}` }),
    await createNamespace(a.key, { name: `three-${unique()}` }),
  ];
  const nsB = await createNamespace(b.key, { name: `other-org-${unique()}` });
  const alice = {
    ns1: await rememberAll(a.key, ns1.id, [
      { content: "Alice prefers tea over coffee.", identity_id: "alice" },
      { content: longText("alice gardening"), identity_id: "alice" },
    ]),
    ns2: await rememberAll(a.key, ns2.id, [{ content: longText("alice travel"), identity_id: "alice" }]),
    ns3: await rememberAll(a.key, ns3.id, [{ content: "Alice lives in Lisbon.", identity_id: "alice" }]),
    orgB: await rememberAll(b.key, nsB.id, [{ content: "Alice of the other org.", identity_id: "alice" }]),
  };
  const bob = await rememberAll(a.key, ns1.id, [{ content: "Bob plays the cello.", identity_id: "bob" }]);
  const writer = await createKey(a.org.id, {
    name: "two-namespace writer",
    permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"],
    namespaceIds: [ns1.id, ns2.id],
  });
  return { a, b, ns1, ns2, ns3, nsB, alice, bob, writer };
}

const ids = (memories: { id: string }[]) => memories.map((m) => m.id);

describe("forget with all_namespaces", () => {
  test("deletes the identity's memories in every namespace the key may write, and only there", async () => {
    const w = await world();
    const doomed = [...ids(w.alice.ns1), ...ids(w.alice.ns2)];
    const doomedChunks = await chunksOf(doomed);
    expect(doomedChunks).toBeGreaterThan(doomed.length);
    const response = await api("POST", "/forget", {
      key: w.writer.secret,
      body: { identity_id: "alice", all_namespaces: true },
    });
    expect(response.status).toBe(200);
    const result = response.body.data;
    expect(result.deleted).toBe(3);
    expect([...result.memory_ids].sort()).toEqual([...doomed].sort());
    expect(result.namespaces).toEqual(
      expect.arrayContaining([
        { namespace_id: w.ns1.id, deleted: 2 },
        { namespace_id: w.ns2.id, deleted: 1 },
      ]),
    );
    expect(result.namespaces).toHaveLength(2);
    expect(result.erasure_id).toMatch(/^era_/);

    expect(await memoriesLeft(doomed)).toBe(0);
    expect(await chunksOf(doomed)).toBe(0);
    // Not granted to the key, another identity, another organization: untouched.
    expect(await memoriesLeft(ids(w.alice.ns3))).toBe(1);
    expect(await memoriesLeft(ids(w.bob))).toBe(1);
    expect(await memoriesLeft(ids(w.alice.orgB))).toBe(1);
    for (const ns of [w.ns1, w.ns2]) expect(await termStatisticsConsistent(ns.id)).toBe(true);

    // The receipt says what the tables lost.
    const [receipt] = (await erasures(w.a.key, `?identity_id=alice`)).data;
    expect(receipt).toMatchObject({
      id: result.erasure_id,
      kind: "forget",
      namespace_id: null,
      selector: { identity_id: "alice", all_namespaces: true, namespaces_searched: 2 },
      memories_deleted: 3,
      chunks_deleted: doomedChunks,
      facts_deleted: 0,
      actor: { kind: "api_key", id: w.writer.id, name: "two-namespace writer" },
    });
    expect(receipt.namespaces).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ namespace_id: w.ns1.id, name: w.ns1.name, memories_deleted: 2 }),
        expect.objectContaining({ namespace_id: w.ns2.id, name: w.ns2.name, memories_deleted: 1 }),
      ]),
    );
    expect(receipt.namespaces.reduce((sum: number, ns: any) => sum + ns.chunks_deleted, 0)).toBe(doomedChunks);
    expect(Date.now() - Date.parse(receipt.created_at)).toBeLessThan(60_000);
    // Organization B sees none of it.
    expect((await erasures(w.b.key)).pagination.total).toBe(0);
  });

  test("a key with scopes forgets only inside its scopes", async () => {
    const { org, key } = await createTenant(`Scoped ${unique()}`);
    const ns1 = await createNamespace(key);
    const ns2 = await createNamespace(key);
    const inTeam = [
      ...(await rememberAll(key, ns1.id, [
        { content: "Dana's red ticket.", identity_id: "dana", scopes: { team: "red" } },
      ])),
      ...(await rememberAll(key, ns2.id, [
        { content: "Dana's red note.", identity_id: "dana", scopes: { team: "red", region: "eu" } },
      ])),
    ];
    const outside = [
      ...(await rememberAll(key, ns1.id, [
        { content: "Dana's blue ticket.", identity_id: "dana", scopes: { team: "blue" } },
      ])),
      ...(await rememberAll(key, ns2.id, [{ content: "Dana without scopes.", identity_id: "dana" }])),
    ];
    const scoped = await createKey(org.id, { scopes: { team: "red" }, namespaceIds: [ns1.id, ns2.id] });
    const response = await api("POST", "/forget", {
      key: scoped.secret,
      body: { identity_id: "dana", all_namespaces: true },
    });
    expect(response.status).toBe(200);
    expect([...response.body.data.memory_ids].sort()).toEqual(ids(inTeam).sort());
    expect(await memoriesLeft(ids(inTeam))).toBe(0);
    expect(await memoriesLeft(ids(outside))).toBe(2);
    const [receipt] = (await erasures(key)).data;
    expect(receipt.selector).toEqual({
      identity_id: "dana",
      scopes: { team: "red" },
      all_namespaces: true,
      namespaces_searched: 2,
    });
    // Asking for other scopes than the key's is refused, as everywhere.
    const contradicting = await api("POST", "/forget", {
      key: scoped.secret,
      body: { identity_id: "dana", all_namespaces: true, scopes: { team: "blue" } },
    });
    expect(contradicting.status).toBe(403);
    expect(await memoriesLeft(ids(outside))).toBe(2);
  });

  test("narrowed by metadata; nothing matching is deleted 0, and still on record", async () => {
    const { key } = await createTenant(`Metadata ${unique()}`);
    const ns = await createNamespace(key);
    const [chat, email] = await rememberAll(key, ns.id, [
      { content: "Eve asked about invoices.", identity_id: "eve", metadata: { channel: "chat" } },
      { content: "Eve wrote about shipping.", identity_id: "eve", metadata: { channel: "email" } },
    ]);
    const response = await api("POST", "/forget", {
      key,
      body: { identity_id: "eve", all_namespaces: true, metadata: { channel: "chat" } },
    });
    expect(response.body.data).toMatchObject({ deleted: 1, memory_ids: [chat.id] });
    expect(await memoriesLeft([email.id])).toBe(1);
    const nothing = await api("POST", "/forget", { key, body: { identity_id: "nobody", all_namespaces: true } });
    expect(nothing.status).toBe(200);
    expect(nothing.body.data).toEqual({ deleted: 0, memory_ids: [], namespaces: [], erasure_id: expect.any(String) });
    const [latest] = (await erasures(key)).data;
    expect(latest).toMatchObject({ id: nothing.body.data.erasure_id, memories_deleted: 0, chunks_deleted: 0 });
  });

  test.each([
    [{ all_namespaces: true }, "identity_id"],
    [{ all_namespaces: true, identity_id: "alice", namespace_id: "NS" }, "all_namespaces"],
    [{ all_namespaces: true, identity_id: "alice", external_reference_id: "crm-1" }, "all_namespaces"],
    [{ all_namespaces: true, identity_id: "alice", memory_ids: ["mem_1"] }, "all_namespaces"],
    [{ all_namespaces: true, identity_id: "alice", all: true }, "all_namespaces"],
    [{ all_namespaces: false, identity_id: "alice" }, "must be true"],
    [{ all_namespaces: "yes", identity_id: "alice" }, "must be true"],
    [{ identity_id: "alice" }, "namespace_id"],
  ])("bad input %j → 400, nothing deleted, no receipt", async (body, message) => {
    const w = await world();
    const before = await storedCounts(w.ns1.id);
    const sent = JSON.parse(JSON.stringify(body).replace('"NS"', JSON.stringify(w.ns1.id)));
    const response = await api("POST", "/forget", { key: w.a.key, body: sent });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.error)).toContain(message);
    expect(await storedCounts(w.ns1.id)).toEqual(before);
    expect(await memoriesLeft(ids(w.alice.ns2))).toBe(1);
    expect((await erasures(w.a.key)).pagination.total).toBe(0);
  });

  test("a key without NAMESPACE_WRITE is refused (403) and nothing changes", async () => {
    const w = await world();
    const reader = await createKey(w.a.org.id, { permissions: ["NAMESPACE_READ"], namespaceIds: [w.ns1.id] });
    const response = await api("POST", "/forget", {
      key: reader.secret,
      body: { identity_id: "alice", all_namespaces: true },
    });
    expect(response.status).toBe(403);
    expect(await memoriesLeft(ids(w.alice.ns1))).toBe(2);
  });
});

describe("receipts", () => {
  test("a forget in a namespace answers with its receipt's id; the receipt counts memories and chunks", async () => {
    const w = await world();
    const doomed = ids(w.alice.ns1);
    const chunks = await chunksOf(doomed);
    const response = await api("POST", "/forget", {
      key: w.a.key,
      body: { namespace_id: w.ns1.id, memory_ids: doomed },
    });
    expect(response.body.data).toEqual({
      deleted: 2,
      memory_ids: expect.arrayContaining(doomed),
      namespaces: [{ namespace_id: w.ns1.id, deleted: 2 }],
      erasure_id: expect.stringMatching(/^era_/),
    });
    const [receipt] = (await erasures(w.a.key)).data;
    expect(receipt).toEqual({
      id: response.body.data.erasure_id,
      kind: "forget",
      namespace_id: w.ns1.id,
      namespaces: [
        { namespace_id: w.ns1.id, name: w.ns1.name, memories_deleted: 2, chunks_deleted: chunks, facts_deleted: 0 },
      ],
      selector: { memory_id_count: 2 },
      memories_deleted: 2,
      chunks_deleted: chunks,
      facts_deleted: 0,
      actor: { kind: "api_key", id: w.a.keyId, name: expect.stringContaining("admin key") },
      created_at: expect.any(String),
    });
  });

  test("deleting a namespace records what its cascade deleted", async () => {
    const w = await world();
    const before = await storedCounts(w.ns1.id);
    expect(before.memories).toBe(3);
    expect((await api("DELETE", `/namespaces/${w.ns1.id}`, { key: w.a.key })).status).toBe(200);
    expect((await storedCounts(w.ns1.id)).memories).toBe(0);
    const { data } = await erasures(w.a.key, `?namespace_id=${w.ns1.id}`);
    expect(data).toEqual([
      {
        id: expect.stringMatching(/^era_/),
        kind: "namespace.delete",
        namespace_id: w.ns1.id,
        namespaces: [
          {
            namespace_id: w.ns1.id,
            name: w.ns1.name,
            memories_deleted: before.memories,
            chunks_deleted: before.chunks,
            facts_deleted: 0,
          },
        ],
        selector: { whole_namespace: true },
        memories_deleted: before.memories,
        chunks_deleted: before.chunks,
        facts_deleted: 0,
        actor: { kind: "api_key", id: w.a.keyId, name: expect.any(String) },
        created_at: expect.any(String),
      },
    ]);
    const prisma = await db();
    const audit = await prisma.auditLog.findFirst({ where: { orgId: w.a.org.id, action: "namespace.delete" } });
    expect(audit?.details).toMatchObject({
      name: w.ns1.name,
      erasure_id: data[0].id,
      memories_deleted: before.memories,
      chunks_deleted: before.chunks,
    });
  });

  test("a receipt and its audit entry hold no memory content", async () => {
    const w = await world();
    await api("POST", "/forget", { key: w.a.key, body: { identity_id: "alice", all_namespaces: true } });
    await api("POST", "/forget", { key: w.a.key, body: { namespace_id: w.ns1.id, all: true } });
    await api("DELETE", `/namespaces/${w.ns2.id}`, { key: w.a.key });
    const prisma = await db();
    const stored = JSON.stringify([
      await prisma.$queryRaw(Prisma.sql`SELECT * FROM erasures WHERE org_id = ${w.a.org.id}`),
      await prisma.auditLog.findMany({ where: { orgId: w.a.org.id } }),
      (await erasures(w.a.key)).data,
    ]);
    expect((await erasures(w.a.key)).pagination.total).toBe(3);
    for (const words of ["tea over coffee", "gardening", "travel", "Lisbon", "cello", "Sentence 1"]) {
      expect(stored).not.toContain(words);
    }
  });

  test("MCP's forget records a receipt too", async () => {
    const { key, keyId } = await createTenant(`MCP ${unique()}`);
    const ns = await createNamespace(key);
    const [memory] = await rememberAll(key, ns.id, [{ content: "Frank likes jazz.", identity_id: "frank" }]);
    const client = new Client({ name: "memgw-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://gateway.test/api/v1/mcp/${ns.id}`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
        fetch: (input, init) => routeRequest(new Request(input, init)),
      }),
    );
    try {
      const { tools } = await client.listTools();
      const forgetTool = tools.find((tool) => tool.name === "forget")!;
      // The MCP endpoint is one namespace's: forgetting across namespaces is the API's.
      expect(Object.keys(forgetTool.inputSchema.properties ?? {})).not.toContain("all_namespaces");
      const result = await client.callTool({ name: "forget", arguments: { identity_id: "frank" } });
      const answer = JSON.parse((result.content as { text: string }[])[0].text);
      expect(answer).toMatchObject({ deleted: 1, memory_ids: [memory.id], erasure_id: expect.any(String) });
      const [receipt] = (await erasures(key)).data;
      expect(receipt).toMatchObject({
        id: answer.erasure_id,
        namespace_id: ns.id,
        selector: { identity_id: "frank" },
        memories_deleted: 1,
        actor: { kind: "api_key", id: keyId },
      });
    } finally {
      await client.close();
    }
  });

  test("the console's memory deletion records a receipt, named by the person's email", async () => {
    const { org, key } = await createTenant(`Console ${unique()}`);
    const ns = await createNamespace(key);
    const [memory] = await rememberAll(key, ns.id, [{ content: "Grace's note.", identity_id: "grace" }]);
    const email = `admin-${unique()}@example.com`;
    const admin = await inviteMember({ orgId: org.id, email, role: "admin" }, SYSTEM_ACTOR);
    await deleteMemory(memberPrincipal({ orgId: org.id, userId: admin.id, role: "admin" }), ns.id, memory.id);
    const [receipt] = (await erasures(key)).data;
    expect(receipt).toMatchObject({
      namespace_id: ns.id,
      selector: { memory_id_count: 1 },
      memories_deleted: 1,
      chunks_deleted: 1,
      actor: { kind: "user", id: admin.id, name: email },
    });
    const prisma = await db();
    const audit = await prisma.auditLog.findFirst({ where: { orgId: org.id, action: "memory.delete" } });
    expect(audit?.details).toMatchObject({ namespace_id: ns.id, erasure_id: receipt.id });
  });
  test("the console's Forget this identity: one receipt, brought up to date by each transaction", async () => {
    const w = await world();
    const doomed = [...ids(w.alice.ns1), ...ids(w.alice.ns2), ...ids(w.alice.ns3)];
    const chunks = await chunksOf(doomed);
    const email = `owner-${unique()}@example.com`;
    const owner = await inviteMember({ orgId: w.a.org.id, email, role: "owner" }, SYSTEM_ACTOR);
    const result = await forgetIdentity(
      memberPrincipal({ orgId: w.a.org.id, userId: owner.id, role: "owner" }),
      "alice",
    );
    expect(result.deleted).toBe(4);
    const { data } = await erasures(w.a.key);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      id: result.erasureId,
      kind: "forget",
      namespace_id: null,
      selector: { identity_id: "alice", all_namespaces: true },
      memories_deleted: 4,
      chunks_deleted: chunks,
      actor: { kind: "user", id: owner.id, name: email },
    });
    expect(data[0].namespaces.map((ns: any) => [ns.namespace_id, ns.memories_deleted]).sort()).toEqual(
      [
        [w.ns1.id, 2],
        [w.ns2.id, 1],
        [w.ns3.id, 1],
      ].sort(),
    );
    const prisma = await db();
    const audit = await prisma.auditLog.findFirst({ where: { orgId: w.a.org.id, action: "identity.forget" } });
    expect(audit?.details).toMatchObject({ deleted: 4, erasure_id: result.erasureId });
    expect(await memoriesLeft(ids(w.alice.orgB))).toBe(1);
  });
});

describe("GET /erasures", () => {
  test("newest first, paginated, filtered by identity_id and namespace_id", async () => {
    const w = await world();
    await api("POST", "/forget", { key: w.a.key, body: { namespace_id: w.ns1.id, identity_id: "bob" } });
    await api("POST", "/forget", { key: w.a.key, body: { namespace_id: w.ns3.id, identity_id: "alice" } });
    await api("POST", "/forget", { key: w.a.key, body: { identity_id: "alice", all_namespaces: true } });
    const all = await erasures(w.a.key);
    expect(all.pagination.total).toBe(3);
    expect(all.data.map((e) => e.selector.identity_id)).toEqual(["alice", "alice", "bob"]);
    expect(all.data[0].selector.all_namespaces).toBe(true);
    const times = all.data.map((e) => Date.parse(e.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);

    expect((await erasures(w.a.key, "?identity_id=alice")).data.map((e) => e.id)).toEqual(
      all.data.slice(0, 2).map((e) => e.id),
    );
    expect((await erasures(w.a.key, "?identity_id=bob")).data.map((e) => e.id)).toEqual([all.data[2].id]);
    expect((await erasures(w.a.key, "?identity_id=nobody")).pagination.total).toBe(0);
    // ns1: bob's forget and the all-namespaces one (which deleted alice's memories there); ns3: one.
    expect((await erasures(w.a.key, `?namespace_id=${w.ns1.id}`)).data.map((e) => e.id)).toEqual([
      all.data[0].id,
      all.data[2].id,
    ]);
    expect((await erasures(w.a.key, `?namespace_id=${w.ns3.id}`)).data.map((e) => e.id)).toEqual([all.data[1].id]);
    const page2 = await api("GET", "/erasures?page=2&page_size=2", { key: w.a.key });
    expect(page2.body.data.map((e: any) => e.id)).toEqual([all.data[2].id]);
    expect(page2.body.pagination).toEqual({ page: 2, pageSize: 2, total: 3, totalPages: 2 });
  });

  test("another organization's receipts are never visible, even filtered by its namespace", async () => {
    const w = await world();
    await api("POST", "/forget", { key: w.b.key, body: { namespace_id: w.nsB.id, all: true } });
    expect((await erasures(w.b.key)).pagination.total).toBe(1);
    expect((await erasures(w.a.key)).pagination.total).toBe(0);
    expect((await erasures(w.a.key, `?namespace_id=${w.nsB.id}`)).pagination.total).toBe(0);
    expect((await erasures(w.a.key, `?identity_id=alice`)).pagination.total).toBe(0);
  });

  test("a key sees receipts of its own deletions and of namespaces it may use; not of the others", async () => {
    const w = await world();
    const manager = await createKey(w.a.org.id, { name: "ns2 manager", namespaceIds: [w.ns2.id] });
    await api("POST", "/forget", { key: w.a.key, body: { namespace_id: w.ns3.id, identity_id: "alice" } });
    const inNs2 = await api("POST", "/forget", { key: w.a.key, body: { namespace_id: w.ns2.id, all: true } });
    const own = await api("POST", "/forget", { key: manager.secret, body: { identity_id: "x", all_namespaces: true } });
    const seen = (await erasures(manager.secret)).data.map((e) => e.id);
    expect(seen.sort()).toEqual([inNs2.body.data.erasure_id, own.body.data.erasure_id].sort());
    expect((await erasures(manager.secret, `?namespace_id=${w.ns3.id}`)).pagination.total).toBe(0);
  });

  test("refused to keys with scopes and to keys without NAMESPACE_MANAGE; bad filters are 400", async () => {
    const w = await world();
    const scoped = await createKey(w.a.org.id, { scopes: { team: "red" }, namespaceIds: [w.ns1.id] });
    expect((await api("GET", "/erasures", { key: scoped.secret })).status).toBe(403);
    expect((await api("GET", "/erasures", { key: w.writer.secret })).status).toBe(403);
    expect((await api("GET", "/erasures", {})).status).toBe(401);
    for (const query of ["?page=0", "?page_size=101", "?identity_id=", `?identity_id=${"x".repeat(256)}`, "?bad=1"]) {
      expect((await api("GET", `/erasures${query}`, { key: w.a.key })).status).toBe(400);
    }
  });
});

describe("the console's audit log", () => {
  test("shows every forget as memory.forget with its receipt", async () => {
    const w = await world();
    const forgot = await api("POST", "/forget", { key: w.a.key, body: { identity_id: "alice", all_namespaces: true } });
    const prisma = await db();
    const entry = await prisma.auditLog.findFirst({ where: { orgId: w.a.org.id, action: "memory.forget" } });
    expect(entry).toMatchObject({
      actorType: "api_key",
      actorId: w.a.keyId,
      targetType: "erasure",
      targetId: forgot.body.data.erasure_id,
      details: expect.objectContaining({
        erasure_id: forgot.body.data.erasure_id,
        memories_deleted: 4,
        selector: { identity_id: "alice", all_namespaces: true, namespaces_searched: 3 },
      }),
    });
    const owner = await inviteMember(
      { orgId: w.a.org.id, email: `owner-${unique()}@example.com`, role: "owner" },
      SYSTEM_ACTOR,
    );
    getServerSession.mockResolvedValue({ userId: owner.id, sessionId: `ses_${unique()}`, method: "password" });
    const page = JSON.stringify(
      await AuditLogPage({
        params: Promise.resolve({ org: w.a.org.slug }),
        searchParams: Promise.resolve({ action: "memory.forget" }),
      }),
    );
    expect(page).toContain(forgot.body.data.erasure_id);
    expect(page).toContain("memory.forget");
  });
});
