// Updates with history (PATCH /memories/{id}, GET /memories/{id}/history) and expiry that really deletes
// (hidden from every read the moment it passes, deleted with everything it left by the sweep).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, test, vi } from "vitest";
import { integrationPrincipal, memberPrincipal } from "@/lib/auth/principal";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { runDueJobs } from "@/lib/jobs/queue";
import { embedder } from "@/lib/memory/embeddings";
import {
  expiryJobRunners,
  requestExpirySweep,
  startExpirySweeps,
  sweepExpiredMemories,
} from "@/lib/memory/forget/expiry";
import { memoryVersions, writeImportedHistory, type ImportedVersion } from "@/lib/memory/store/history";
import { identityMemories } from "@/lib/memory/forget/identities";
import { getMemoryWithChunks } from "@/lib/memory/read/list";
import { replaceMemoryContent } from "@/lib/memory/write/replace-memory-content";
import { updateMemory } from "@/lib/memory/write/update-memory";
import { addMember } from "@/lib/orgs/members";
import { createUser } from "@/lib/orgs/users";
import { api, routeRequest } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";
import { recallContents, rememberAll, storedCounts, termStatisticsConsistent } from "../../helpers/memory";
import { Prisma } from "@/lib/generated/prisma/client";

const PETS = "I adopted a golden retriever named Max last spring.";
const CATS = "I adopted a grey tabby cat named Pixel this winter.";
const MEETING = "The quarterly sales meeting is on Thursday at 10am in room 4B.";

async function tenantWithNamespace() {
  const tenant = await createTenant();
  const ns = await createNamespace(tenant.key);
  return { ...tenant, ns };
}

async function remember(key: string, namespaceId: string, body: Record<string, unknown>) {
  const response = await api("POST", "/remember", { key, body: { namespace_id: namespaceId, ...body } });
  if (response.status !== 201) throw new Error(`remember failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

const patch = (key: string, id: string, body: unknown) => api("PATCH", `/memories/${id}`, { key, body });
const history = (key: string, id: string, query = "") => api("GET", `/memories/${id}/history${query}`, { key });

async function chunksOf(memoryId: string) {
  const prisma = await db();
  return prisma.$queryRaw<
    {
      id: string;
      content: string;
      embedding: string;
      metadata: unknown;
      scopes: unknown;
      scope_key: string | null;
      identity_id: string | null;
      occurred_at: Date;
      expires_at: Date | null;
    }[]
  >(Prisma.sql`SELECT id, content, embedding::text AS embedding, metadata, scopes, scope_key, identity_id,
      occurred_at, expires_at
     FROM memory_chunks WHERE memory_id = ${memoryId} ORDER BY position`);
}

/** Every scope signature's statistics equal what its chunks and postings say. */
async function scopeStatisticsConsistent(namespaceId: string) {
  const prisma = await db();
  const [row] = await prisma.$queryRaw<{ mismatches: number }[]>(Prisma.sql`SELECT (SELECT count(*)::int FROM (
               SELECT scope_key, term, count(*) AS df FROM chunk_terms
               WHERE namespace_id = ${namespaceId} AND scope_key IS NOT NULL GROUP BY scope_key, term
             ) p FULL JOIN (SELECT scope_key, term, df FROM scope_terms WHERE namespace_id = ${namespaceId}) t
               USING (scope_key, term)
             WHERE p.df IS DISTINCT FROM t.df)
          + (SELECT count(*)::int FROM (
               SELECT scope_key, count(*) AS n, sum(term_count) AS terms FROM memory_chunks
               WHERE namespace_id = ${namespaceId} AND scope_key IS NOT NULL GROUP BY scope_key
             ) c FULL JOIN (SELECT scope_key, chunk_count AS n, total_terms AS terms FROM scope_search_stats
                            WHERE namespace_id = ${namespaceId}) s USING (scope_key)
             WHERE c.n IS DISTINCT FROM s.n OR c.terms IS DISTINCT FROM s.terms)
          + (SELECT count(*)::int FROM chunk_terms t JOIN memory_chunks c ON c.id = t.chunk_id
             WHERE t.namespace_id = ${namespaceId} AND t.scope_key IS DISTINCT FROM c.scope_key) AS mismatches`);
  return row.mismatches === 0;
}

async function person(orgId: string, email: string) {
  const user = await createUser({ email });
  await addMember({ orgId, userId: user.id, role: "owner" }, SYSTEM_ACTOR);
  return memberPrincipal({ orgId, userId: user.id, role: "owner" });
}

/** Puts a memory's expiry in the past, as if its time had come (memory and chunks, as remember writes them). */
async function expireNow(memoryId: string) {
  const prisma = await db();
  const past = new Date(Date.now() - 1_000).toISOString();
  await prisma.$executeRaw(Prisma.sql`UPDATE memories SET expires_at = ${past}::timestamptz WHERE id = ${memoryId}`);
  await prisma.$executeRaw(
    Prisma.sql`UPDATE memory_chunks SET expires_at = ${past}::timestamptz WHERE memory_id = ${memoryId}`,
  );
}

describe("PATCH /memories/{id}", () => {
  test("new content is re-chunked and re-embedded: version 2, recall finds the new text and not the old", async () => {
    const { key, ns } = await tenantWithNamespace();
    const stored = await remember(key, ns.id, { content: PETS, metadata: { source: "chat" }, identity_id: "dana" });
    const before = await chunksOf(stored.id);
    const embed = vi.spyOn(embedder(), "embed");
    try {
      const response = await patch(key, stored.id, { content: CATS });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        id: stored.id,
        content: CATS,
        metadata: { source: "chat" },
        identity_id: "dana",
        version: 2,
        created_at: stored.created_at,
      });
      expect(Date.parse(response.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(stored.updated_at));
      expect(embed.mock.calls.filter(([, priority]) => priority === "ingest")).toHaveLength(1);
    } finally {
      embed.mockRestore();
    }
    const after = await chunksOf(stored.id);
    expect(after.map((c) => c.content)).toEqual([CATS]);
    expect(after[0].id).not.toBe(before[0].id);
    expect(after[0].embedding).not.toBe(before[0].embedding);
    expect(await recallContents(key, { namespace_id: ns.id, query: "tabby cat Pixel", top_k: 1 })).toEqual([CATS]);
    expect(await recallContents(key, { namespace_id: ns.id, query: "golden retriever Max" })).not.toContain(PETS);
    expect(await termStatisticsConsistent(ns.id)).toBe(true);
    expect((await api("GET", `/memories/${stored.id}`, { key })).body.data).toMatchObject({
      content: CATS,
      version: 2,
    });
  });

  test("metadata, identity, event time and expiry change without any embedding; the chunks follow", async () => {
    const { key, ns } = await tenantWithNamespace();
    const stored = await remember(key, ns.id, { content: MEETING, metadata: { source: "chat" }, identity_id: "dana" });
    const before = await chunksOf(stored.id);
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const embed = vi.spyOn(embedder(), "embed");
    let response;
    try {
      response = await patch(key, stored.id, {
        metadata: { source: "email", priority: 2 },
        identity_id: "erin",
        occurred_at: "2026-03-01T09:30:00Z",
        expires_at: expiresAt,
      });
      expect(embed).not.toHaveBeenCalled();
    } finally {
      embed.mockRestore();
    }
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      content: MEETING,
      metadata: { source: "email", priority: 2 },
      identity_id: "erin",
      occurred_at: "2026-03-01T09:30:00.000Z",
      expires_at: expiresAt,
      version: 2,
    });
    const after = await chunksOf(stored.id);
    expect(after.map((c) => [c.id, c.embedding])).toEqual(before.map((c) => [c.id, c.embedding]));
    expect(after[0]).toMatchObject({ metadata: { source: "email", priority: 2 }, identity_id: "erin" });
    expect(new Date(after[0].occurred_at).toISOString()).toBe("2026-03-01T09:30:00.000Z");
    expect(new Date(after[0].expires_at!).toISOString()).toBe(expiresAt);
    // Filters read the chunks' copies: recall by the new identity and metadata finds it, by the old ones not.
    const query = { namespace_id: ns.id, query: "sales meeting" };
    expect(await recallContents(key, { ...query, identity_id: "erin", metadata: { source: "email" } })).toEqual([
      MEETING,
    ]);
    expect(await recallContents(key, { ...query, identity_id: "dana" })).toEqual([]);
    expect(
      await recallContents(key, { ...query, occurred_after: "2026-02-28T00:00:00Z", occurred_before: "2026-03-02" }),
    ).toEqual([MEETING]);
  });

  test("identity_id null clears it, expires_at null removes the expiry, ttl_seconds sets one from now", async () => {
    const { key, ns } = await tenantWithNamespace();
    const stored = await remember(key, ns.id, { content: MEETING, identity_id: "dana", ttl_seconds: 600 });
    expect(stored.expires_at).not.toBeNull();
    const cleared = await patch(key, stored.id, { identity_id: null, expires_at: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ identity_id: null, expires_at: null, version: 2 });
    expect((await chunksOf(stored.id))[0]).toMatchObject({ identity_id: null, expires_at: null });

    const started = Date.now();
    const ttl = await patch(key, stored.id, { ttl_seconds: 3_600 });
    expect(ttl.status).toBe(200);
    const expiresAt = Date.parse(ttl.body.data.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(started + 3_600_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(ttl.body.data.version).toBe(3);
  });

  test("the same values again: 200 with the memory as it is, no new version", async () => {
    const { key, ns } = await tenantWithNamespace();
    const stored = await remember(key, ns.id, {
      content: MEETING,
      metadata: { a: 1, b: "x" },
      scopes: { team: "sales" },
      identity_id: "dana",
    });
    const response = await patch(key, stored.id, {
      content: MEETING,
      metadata: { b: "x", a: 1 },
      scopes: { team: "sales" },
      identity_id: "dana",
      occurred_at: stored.occurred_at,
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ version: 1, updated_at: stored.updated_at });
    expect((await history(key, stored.id)).body.data.map((v: { version: number }) => v.version)).toEqual([1]);
  });

  test("bad input is a 400 that changes nothing", async () => {
    const { key, ns } = await tenantWithNamespace();
    const stored = await remember(key, ns.id, { content: MEETING });
    const bad: [unknown, string][] = [
      [{}, "body"],
      [{ content: "   " }, "body.content"],
      [{ color: "blue" }, "body"],
      [{ expires_at: "2020-01-01T00:00:00Z" }, "body.expires_at"],
      [{ expires_at: "tomorrow" }, "body.expires_at"],
      [{ ttl_seconds: 0 }, "body.ttl_seconds"],
      [{ ttl_seconds: 315_360_001 }, "body.ttl_seconds"],
      [{ ttl_seconds: 60, expires_at: null }, "body.ttl_seconds"],
      [{ scopes: { team: 5 } }, "body.scopes.team"],
      [{ metadata: { nested: { deep: true } } }, "body.metadata.nested"],
      [{ identity_id: "" }, "body.identity_id"],
      [{ occurred_at: "2026-13-45" }, "body.occurred_at"],
      [{ content: "a\u0000b" }, "body.content"],
    ];
    for (const [body, field] of bad) {
      const response = await patch(key, stored.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe("BAD_REQUEST");
      expect(
        response.body.error.details.map((d: { field: string }) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const { deduplicated: _deduplicated, ...asStored } = stored;
    expect((await api("GET", `/memories/${stored.id}`, { key })).body.data).toEqual(asStored);
  });

  test("a scopes change moves the chunks' BM25 statistics to the new scope signature", async () => {
    const { key, org, ns } = await tenantWithNamespace();
    const [sales, other] = await rememberAll(key, ns.id, [
      { content: PETS, scopes: { team: "sales" } },
      { content: MEETING, scopes: { team: "sales" } },
    ]);
    const before = await chunksOf(sales.id);
    const response = await patch(key, sales.id, { scopes: { team: "support", region: "eu" } });
    expect(response.status).toBe(200);
    expect(response.body.data.scopes).toEqual({ team: "support", region: "eu" });
    const after = await chunksOf(sales.id);
    expect(after.map((c) => c.id)).toEqual(before.map((c) => c.id));
    expect(after[0].scopes).toEqual({ team: "support", region: "eu" });
    expect(after[0].scope_key).not.toBe(before[0].scope_key);
    expect(await scopeStatisticsConsistent(ns.id)).toBe(true);
    expect(await termStatisticsConsistent(ns.id)).toBe(true);

    const supportKey = (await createKey(org.id, { scopes: { team: "support" }, namespaceIds: [ns.id] })).secret;
    const salesKey = (await createKey(org.id, { scopes: { team: "sales" }, namespaceIds: [ns.id] })).secret;
    expect(await recallContents(supportKey, { namespace_id: ns.id, query: "golden retriever" })).toEqual([PETS]);
    // min_score 0: the one memory the key still sees shares nothing with the query (below the relevance floor).
    expect(await recallContents(salesKey, { namespace_id: ns.id, query: "golden retriever", min_score: 0 })).toEqual([
      other.content,
    ]);

    // Back to no scopes at all: the signature's statistics go, the namespace's stay.
    expect((await patch(key, sales.id, { scopes: {} })).status).toBe(200);
    expect((await chunksOf(sales.id))[0].scope_key).toBeNull();
    expect(await scopeStatisticsConsistent(ns.id)).toBe(true);
    expect(await termStatisticsConsistent(ns.id)).toBe(true);
  });

  test("a key with scopes: 404 outside them, 403 for a contradicting scope, its own pairs kept", async () => {
    const { key, org, ns } = await tenantWithNamespace();
    const [salesMemory, supportMemory] = await rememberAll(key, ns.id, [
      { content: PETS, scopes: { team: "sales" } },
      { content: MEETING, scopes: { team: "support" } },
    ]);
    const salesKey = (await createKey(org.id, { scopes: { team: "sales" }, namespaceIds: [ns.id] })).secret;

    for (const response of [
      await patch(salesKey, supportMemory.id, { content: "taken over" }),
      await history(salesKey, supportMemory.id),
    ]) {
      expect(response.status).toBe(404);
      expect(JSON.stringify(response.body)).not.toContain("quarterly");
    }
    const moveOut = await patch(salesKey, salesMemory.id, { scopes: { team: "support" } });
    expect(moveOut.status).toBe(403);
    const narrowed = await patch(salesKey, salesMemory.id, { scopes: { region: "eu" } });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.data.scopes).toEqual({ team: "sales", region: "eu" });
    const emptied = await patch(salesKey, salesMemory.id, { scopes: {} });
    expect(emptied.body.data.scopes).toEqual({ team: "sales" });
    expect((await api("GET", `/memories/${supportMemory.id}`, { key })).body.data.content).toBe(MEETING);

    const readOnly = (await createKey(org.id, { permissions: ["NAMESPACE_READ"], namespaceIds: [ns.id] })).secret;
    expect((await patch(readOnly, salesMemory.id, { content: "nope" })).status).toBe(403);
    expect((await history(readOnly, salesMemory.id)).status).toBe(200);
  });

  test("another organization's memory, an unknown id and an expired memory are 404 and stay as they were", async () => {
    const a = await tenantWithNamespace();
    const b = await tenantWithNamespace();
    const stored = await remember(a.key, a.ns.id, { content: "Org A's secret plans for the launch." });
    for (const response of [
      await patch(b.key, stored.id, { content: "defaced" }),
      await history(b.key, stored.id),
      await patch(a.key, "mem_doesNotExist", { content: "x" }),
      await history(a.key, "mem_doesNotExist"),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("NOT_FOUND");
      expect(JSON.stringify(response.body)).not.toContain("secret plans");
    }
    const { deduplicated: _deduplicated, ...asStored } = stored;
    expect((await api("GET", `/memories/${stored.id}`, { key: a.key })).body.data).toEqual(asStored);
    await expireNow(stored.id);
    expect((await patch(a.key, stored.id, { expires_at: null })).status).toBe(404);
    expect((await history(a.key, stored.id)).status).toBe(404);
  });

  test("two updates at once: both applied one after the other, no version lost", async () => {
    const { key, ns } = await tenantWithNamespace();
    const stored = await remember(key, ns.id, { content: PETS });
    const [first, second] = await Promise.all([
      patch(key, stored.id, { content: CATS }),
      patch(key, stored.id, { metadata: { source: "crm" } }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.body.data.version, second.body.data.version].sort()).toEqual([2, 3]);
    const versions = (await history(key, stored.id)).body.data;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect(versions[0]).toMatchObject({ content: CATS, metadata: { source: "crm" } });
    expect(versions[2]).toMatchObject({ content: PETS, metadata: {} });
    expect(await termStatisticsConsistent(ns.id)).toBe(true);
  });

  test("an integration's sync replacing a document's text makes a version too", async () => {
    const { key, org, ns } = await tenantWithNamespace();
    const connection = { orgId: org.id, id: "int_test", namespaceId: ns.id };
    const stored = await remember(key, ns.id, { content: PETS, metadata: { source: "github" } });
    await replaceMemoryContent(integrationPrincipal(connection), stored.id, {
      content: CATS,
      metadata: { source: "github", title: "pets.md" },
    });
    const versions = (await history(key, stored.id)).body.data;
    expect(versions.map((v: { version: number; content: string }) => [v.version, v.content])).toEqual([
      [2, CATS],
      [1, PETS],
    ]);
    expect(versions[0].changed_by).toMatchObject({ kind: "integration", id: "int_test" });
    expect(versions[0].changed_fields).toEqual(["content", "metadata"]);
  });
});

describe("GET /memories/{id}/history", () => {
  test("versions newest first, the current one included, with who changed what and when", async () => {
    const { key, org, ns } = await tenantWithNamespace();
    const writer = await createKey(org.id, { name: "support bot", namespaceIds: [ns.id] });
    const stored = await remember(writer.secret, ns.id, { content: PETS, metadata: { source: "chat" } });
    await patch(key, stored.id, { metadata: { source: "crm" } });
    const owner = await person(org.id, `owner-${Math.random().toString(36).slice(2)}@example.com`);
    await updateMemory(owner, stored.id, { content: CATS, identity_id: "dana" });

    const response = await history(key, stored.id);
    expect(response.status).toBe(200);
    const versions = response.body.data;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect(versions[0]).toMatchObject({
      content: CATS,
      metadata: { source: "crm" },
      identity_id: "dana",
      changed_fields: ["content", "identity_id"],
      changed_by: { kind: "user", id: owner.userId },
    });
    expect(versions[0].changed_by.name).toMatch(/^owner-.*@example\.com$/);
    expect(versions[1]).toMatchObject({
      content: PETS,
      metadata: { source: "crm" },
      changed_fields: ["metadata"],
      changed_by: { kind: "api_key", name: "Tenant admin key" },
    });
    expect(versions[2]).toMatchObject({
      content: PETS,
      metadata: { source: "chat" },
      scopes: {},
      identity_id: null,
      expires_at: null,
      changed_fields: [],
      changed_by: { kind: "api_key", id: writer.id, name: "support bot" },
      changed_at: stored.created_at,
    });
    for (const version of versions) expect(Object.keys(version).sort()).toEqual(VERSION_FIELDS);
    expect(Date.parse(versions[0].changed_at)).toBeGreaterThanOrEqual(Date.parse(versions[1].changed_at));
    expect(response.body.pagination).toMatchObject({ page: 1, total: 3 });

    const paged = await history(key, stored.id, "?page=2&page_size=2");
    expect(paged.body.data.map((v: { version: number }) => v.version)).toEqual([1]);
    expect(paged.body.pagination).toMatchObject({ page: 2, pageSize: 2, total: 3, totalPages: 2 });
    expect((await history(key, stored.id, "?page_size=0")).status).toBe(400);
    expect((await history(key, stored.id, "?color=blue")).status).toBe(400);
  });

  test("a key with scopes sees only the versions within them: an earlier version's content never leaks", async () => {
    const { key, org, ns } = await tenantWithNamespace();
    const stored = await remember(key, ns.id, { content: "Internal: the budget is 2 million." });
    await patch(key, stored.id, { content: "The budget is public.", scopes: { team: "sales" } });
    const salesKey = (await createKey(org.id, { scopes: { team: "sales" }, namespaceIds: [ns.id] })).secret;
    const scoped = await history(salesKey, stored.id);
    expect(scoped.status).toBe(200);
    expect(scoped.body.data.map((v: { version: number }) => v.version)).toEqual([2]);
    expect(scoped.body.pagination.total).toBe(1);
    expect(JSON.stringify(scoped.body)).not.toContain("2 million");
    expect((await history(key, stored.id)).body.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  });

  test("export and import helpers: every version out, a history written back in", async () => {
    const { key, org, ns } = await tenantWithNamespace();
    const stored = await remember(key, ns.id, { content: PETS });
    await patch(key, stored.id, { content: CATS });
    const prisma = await db();
    const exported = (await memoryVersions(prisma, org.id, [stored.id, "mem_other"])).get(stored.id)!;
    expect(exported.map((v) => [v.version, v.content])).toEqual([
      [2, CATS],
      [1, PETS],
    ]);

    // The import stores the memory row with the current version's fields, then its history.
    const copy = await remember(key, ns.id, { content: CATS, allow_duplicate: true });
    const imported: ImportedVersion[] = (await history(key, stored.id)).body.data;
    await prisma.$transaction((tx) =>
      writeImportedHistory(tx, { orgId: org.id, namespaceId: ns.id, memoryId: copy.id }, imported),
    );
    const copied = (await history(key, copy.id)).body.data;
    expect(copied[1]).toEqual(imported[1]);
    expect(copied[0]).toMatchObject({
      version: 2,
      content: CATS,
      changed_fields: ["content"],
      changed_by: imported[0].changed_by,
    });
    expect((await api("GET", `/memories/${copy.id}`, { key })).body.data.version).toBe(2);
    const disordered = [imported[1], imported[0]];
    await expect(
      prisma.$transaction((tx) =>
        writeImportedHistory(tx, { orgId: org.id, namespaceId: ns.id, memoryId: copy.id }, disordered),
      ),
    ).rejects.toThrow(/newest first/);
  });
});

const VERSION_FIELDS = [
  "changed_at",
  "changed_by",
  "changed_fields",
  "content",
  "expires_at",
  "identity_id",
  "metadata",
  "occurred_at",
  "scopes",
  "version",
].sort();

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function mcpClient(namespaceId: string, key: string) {
  const client = new Client({ name: "memgw-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://gateway.test/api/v1/mcp/${namespaceId}`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: (input, init) => routeRequest(new Request(input, init)),
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBeFalsy();
  return (result.content as { text: string }[]).map((c) => c.text).join("");
}

describe("expiry", () => {
  test("a memory whose ttl passes is gone from recall, ask, get, list, history and the MCP tools at once", async () => {
    const { key, org, ns } = await tenantWithNamespace();
    const SECRET = "The vault combination is 4-8-15-16-23-42.";
    const [kept] = await rememberAll(key, ns.id, [{ content: MEETING }]);
    const doomed = await remember(key, ns.id, { content: SECRET, identity_id: "dana", ttl_seconds: 1 });
    expect(Date.parse(doomed.expires_at) - Date.parse(doomed.created_at)).toBe(1_000);
    expect(await recallContents(key, { namespace_id: ns.id, query: "vault combination" })).toContain(SECRET);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(doomed.expires_at) - Date.now() + 50));

    expect(await recallContents(key, { namespace_id: ns.id, query: "vault combination" })).not.toContain(SECRET);
    const asked = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "What is the vault combination?" },
    });
    expect(asked.status).toBe(200);
    expect(JSON.stringify(asked.body)).not.toContain("4-8-15");
    expect((await api("GET", `/memories/${doomed.id}`, { key })).status).toBe(404);
    expect((await history(key, doomed.id)).status).toBe(404);
    const listed = await api("GET", `/memories?namespace_id=${ns.id}`, { key });
    expect(listed.body.data.map((m: { id: string }) => m.id)).toEqual([kept.id]);
    expect(listed.body.pagination.total).toBe(1);

    const owner = await person(org.id, `owner-${Math.random().toString(36).slice(2)}@example.com`);
    await expect(getMemoryWithChunks(owner, ns.id, doomed.id)).rejects.toThrow(/not found/);
    expect((await identityMemories(owner, "dana")).memories).toEqual([]);

    const client = await mcpClient(ns.id, key);
    expect(await callTool(client, "recall", { query: "vault combination" })).not.toContain("4-8-15");
    expect(await callTool(client, "ask", { query: "What is the vault combination?" })).not.toContain("4-8-15");
    // Remembering it again is a new memory, not the expired one handed back as a duplicate.
    const again = await remember(key, ns.id, { content: SECRET });
    expect(again.id).not.toBe(doomed.id);
  });

  test("the sweep deletes expired memories for real: rows, chunks, postings, statistics and history", async () => {
    const { key, ns } = await tenantWithNamespace();
    const [kept] = await rememberAll(key, ns.id, [{ content: MEETING, scopes: { team: "sales" } }]);
    const doomed = await rememberAll(key, ns.id, [
      { content: PETS, scopes: { team: "sales" } },
      { content: "A long note. ".repeat(400) + "The end of the long note." },
    ]);
    await patch(key, doomed[0].id, { content: CATS });
    const before = await storedCounts(ns.id);
    await sweepExpiredMemories(); // what earlier tests let expire
    for (const memory of doomed) await expireNow(memory.id);

    expect(await sweepExpiredMemories({ batchSize: 1 })).toEqual({ deleted: 2 });
    const prisma = await db();
    const left = await prisma.$queryRaw<
      { memories: number; chunks: number; postings: number; versions: number }[]
    >(Prisma.sql`SELECT (SELECT count(*)::int FROM memories WHERE id = ANY(${doomed.map((m) => m.id)}::text[])) AS
        memories,
              (SELECT count(*)::int FROM memory_chunks WHERE memory_id = ANY(${doomed.map((m) => m.id)}::text[]))
                  AS chunks,
              (SELECT count(*)::int FROM chunk_terms t JOIN memory_chunks c ON c.id = t.chunk_id
               WHERE c.memory_id = ANY(${doomed.map((m) => m.id)}::text[])) AS postings,
              (SELECT count(*)::int FROM memory_versions WHERE memory_id =
                  ANY(${doomed.map((m) => m.id)}::text[])) AS versions`);
    expect(left).toEqual([{ memories: 0, chunks: 0, postings: 0, versions: 0 }]);
    const after = await storedCounts(ns.id);
    expect(after.memories).toBe(1);
    expect(after.chunks).toBe(1);
    expect(after.stats_chunks).toBe(1);
    expect(after.postings).toBeLessThan(before.postings);
    expect(await termStatisticsConsistent(ns.id)).toBe(true);
    expect(await scopeStatisticsConsistent(ns.id)).toBe(true);
    expect((await api("GET", `/memories/${kept.id}`, { key })).status).toBe(200);
    expect(await sweepExpiredMemories()).toEqual({ deleted: 0 });
  });

  test("the sweep runs as a job on the queue: one at a time whoever asks, and it deletes what expired", async () => {
    const { key, ns } = await tenantWithNamespace();
    const doomed = await remember(key, ns.id, { content: PETS });
    await expireNow(doomed.id);
    await requestExpirySweep();
    await requestExpirySweep();
    const prisma = await db();
    const [{ queued }] = await prisma.$queryRaw<{ queued: number }[]>(
      Prisma.sql`SELECT count(*)::int AS queued FROM jobs WHERE kind = 'memory_expiry_sweep' AND status = 'queued'`,
    );
    expect(queued).toBe(1);
    expect(await runDueJobs(expiryJobRunners)).toBe(1);
    expect((await storedCounts(ns.id)).memories).toBe(0);
    expect(await termStatisticsConsistent(ns.id)).toBe(true);
  });

  test("started with the gateway, the sweeps' own worker runs a queued sweep, which deletes what expired", async () => {
    const { key, ns } = await tenantWithNamespace();
    const doomed = await remember(key, ns.id, { content: PETS, ttl_seconds: 1 });
    const stop = startExpirySweeps();
    try {
      await new Promise((resolve) => setTimeout(resolve, Date.parse(doomed.expires_at) - Date.now() + 50));
      // The timer queues one every 15 s; queued now instead, so that the test need not wait for it.
      await requestExpirySweep();
      const deadline = Date.now() + 20_000;
      while ((await storedCounts(ns.id)).memories > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await stop();
    }
    expect(await storedCounts(ns.id)).toMatchObject({ memories: 0, chunks: 0, postings: 0 });
  });
});
