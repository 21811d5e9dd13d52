import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import { db } from "@/lib/db";
import { api, routeRequest } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";
import { recallContents, storedCounts } from "../helpers/memory";
import { processDocuments } from "../helpers/documents";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function endpointOf(namespaceId: string) {
  return `http://gateway.test/api/v1/mcp/${namespaceId}`;
}

/** The SDK's own client, over its Streamable HTTP transport, to the route module. */
async function connect(namespaceId: string, key: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: "memgw-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(endpointOf(namespaceId)), {
    requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } },
    fetch: (input, init) => routeRequest(new Request(input, init)),
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as { type: string; text: string }[]).map((c) => c.text).join("");
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return {
    isError: Boolean(result.isError),
    text: textOf(result),
    json: result.isError ? undefined : JSON.parse(textOf(result)),
  };
}

test("lists the 8 tools with descriptions, input schemas, hints, and tells the agent how to use memory", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key, { name: "support-bot", description: "what customers told support" });
  const client = await connect(ns.id, key);
  expect(client.getInstructions()).toContain(
    'long-term memory of the namespace "support-bot" (what customers told support)',
  );
  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  expect(Object.keys(byName).sort()).toEqual([
    "add_document",
    "ask",
    "forget",
    "get_profile",
    "list_entities",
    "recall",
    "recall_by_entity",
    "remember",
  ]);
  // A statement (content) or a conversation (session_id + messages): the operation checks which was sent.
  expect(byName.remember.inputSchema.required ?? []).toEqual([]);
  expect(Object.keys(byName.remember.inputSchema.properties ?? {}).sort()).toEqual([
    "allow_duplicate",
    "content",
    "expires_at",
    "fact_key",
    "identity_id",
    "infer",
    "messages",
    "metadata",
    "occurred_at",
    "scopes",
    "session_id",
    "supersedes",
    "ttl_seconds",
    "valid_at",
  ]);
  expect(byName.recall.inputSchema.required).toEqual(["query"]);
  expect(byName.recall.inputSchema.properties).not.toHaveProperty("namespace_id");
  expect(byName.forget.description).toContain("irreversible");
  expect(byName.forget.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
  expect(byName.recall.annotations).toMatchObject({ readOnlyHint: true });
  expect(byName.ask.annotations).toMatchObject({ readOnlyHint: true });
  expect(byName.remember.description).toContain("100,000 characters");
  expect(byName.add_document.inputSchema.required).toEqual(["url"]);
  expect(Object.keys(byName.add_document.inputSchema.properties ?? {}).sort()).toEqual([
    "identity_id",
    "metadata",
    "scopes",
    "title",
    "url",
  ]);
});

test("add_document fetches a URL into the namespace; a refused URL is a tool error that stores nothing", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const client = await connect(ns.id, key);
  const page = http.createServer((_request, response) => {
    response.setHeader("content-type", "text/markdown");
    response.end("# Onboarding\n\nNew hires get their laptop from the IT desk on the third floor.\n");
  });
  await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
  process.env.ALLOW_PRIVATE_OUTBOUND = "true";
  try {
    const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/onboarding.md`;
    const added = await call(client, "add_document", { url, title: "Onboarding" });
    expect(added.isError).toBe(false);
    expect(added.json).toMatchObject({ namespace_id: ns.id, status: "queued", source_url: url, title: "Onboarding" });
    await processDocuments();
    const recalled = await call(client, "recall", { query: "where do new hires get a laptop?" });
    expect(recalled.json[0].document).toMatchObject({ id: added.json.id, source_url: url, section: "Onboarding" });
  } finally {
    delete process.env.ALLOW_PRIVATE_OUTBOUND;
    await new Promise<void>((resolve) => page.close(() => resolve()));
  }
  const refused = await call(client, "add_document", { url: "https://169.254.169.254/latest/meta-data/" });
  expect(refused.isError).toBe(true);
  expect(refused.text).toMatch(/^BAD_REQUEST: .*metadata/);
  const listed = await api("GET", `/documents?namespace_id=${ns.id}`, { key });
  expect(listed.body.pagination.total).toBe(1);
});

test("a memory written over MCP is found over HTTP, and each tool works: remember, recall, ask, forget", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const client = await connect(ns.id, key);

  const stored = await call(client, "remember", {
    content: "The office wifi password rotates on the first Monday of each month.",
    metadata: { source: "it" },
  });
  expect(stored.isError).toBe(false);
  expect(stored.json).toMatchObject({ namespace_id: ns.id, metadata: { source: "it" }, chunk_count: 1 });
  expect(await recallContents(key, { namespace_id: ns.id, query: "wifi password" })).toEqual([
    "The office wifi password rotates on the first Monday of each month.",
  ]);

  const recalled = await call(client, "recall", { query: "when does the wifi password change?", top_k: 3 });
  expect(recalled.json[0]).toMatchObject({ memory_id: stored.json.id, score: expect.any(Number) });

  const asked = await call(client, "ask", { query: "When does the wifi password rotate?" });
  expect(asked.json).toMatchObject({ model: "extractive", sources: [{ index: 1, memory_id: stored.json.id }] });
  expect(asked.json.answer).toContain("[1]");

  const forgotten = await call(client, "forget", { memory_ids: [stored.json.id] });
  expect(forgotten.json).toEqual({
    deleted: 1,
    memory_ids: [stored.json.id],
    namespaces: [{ namespace_id: ns.id, deleted: 1 }],
    erasure_id: expect.stringMatching(/^era_/),
  });
  expect(await recallContents(key, { namespace_id: ns.id, query: "wifi password" })).toEqual([]);
});

test("identity_id defaults to the X-Identity-Id header; an explicit one wins; each call logs activity", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  const client = await connect(ns.id, key, { "x-identity-id": "user-42" });
  const fromHeader = await call(client, "remember", { content: "User 42 likes dark mode." });
  const explicit = await call(client, "remember", { content: "User 7 likes light mode.", identity_id: "user-7" });
  expect(fromHeader.json.identity_id).toBe("user-42");
  expect(explicit.json.identity_id).toBe("user-7");
  const mine = await call(client, "recall", { query: "likes mode" });
  expect(mine.json.map((m: { content: string }) => m.content)).toEqual(["User 42 likes dark mode."]);

  const prisma = await db();
  const rows = await prisma.activityLog.findMany({ where: { orgId: org.id }, orderBy: { createdAt: "asc" } });
  expect(rows.map((r) => [r.operation, r.status, r.identityId, r.namespaceId])).toEqual([
    ["remember", 201, "user-42", ns.id],
    ["remember", 201, "user-7", ns.id],
    ["recall", 200, "user-42", ns.id],
  ]);
});

test("refused and invalid calls are tool errors with a clear message, and change nothing", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  await api("POST", "/remember", {
    key,
    body: { namespace_id: ns.id, content: "Team B's launch is on Monday.", scopes: { team: "b" } },
  });

  const reader = await createKey(org.id, { permissions: ["NAMESPACE_READ"], namespaceIds: [ns.id] });
  const readOnly = await connect(ns.id, reader.secret);
  // A read-only key is offered the tools it may run; one it calls anyway says what the key lacks.
  expect((await readOnly.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
    "ask",
    "get_profile",
    "list_entities",
    "recall",
    "recall_by_entity",
  ]);
  const refused = await call(readOnly, "remember", { content: "should not be stored" });
  expect(refused).toMatchObject({
    isError: true,
    text: "FORBIDDEN: This API key lacks the NAMESPACE_WRITE permission.",
  });
  const forgetRefused = await call(readOnly, "forget", { all: true });
  expect(forgetRefused.isError).toBe(true);

  const teamA = await createKey(org.id, { scopes: { team: "a" }, namespaceIds: [ns.id] });
  const scoped = await connect(ns.id, teamA.secret);
  expect((await call(scoped, "recall", { query: "launch" })).json).toEqual([]);
  const contradiction = await call(scoped, "recall", { query: "launch", scopes: { team: "b" } });
  expect(contradiction.isError).toBe(true);
  expect(contradiction.text).toMatch(/^FORBIDDEN: /);
  expect((await call(scoped, "forget", { all: true })).json).toMatchObject({ deleted: 0, memory_ids: [] });

  const invalid = await call(readOnly, "recall", { query: "launch", top_k: 500 });
  expect(invalid.isError).toBe(true);
  expect(invalid.text).toContain("top_k");
  const emptySelector = await call(await connect(ns.id, key), "forget", {});
  expect(emptySelector).toMatchObject({ isError: true });
  expect(emptySelector.text).toContain("say what to forget");

  expect(await recallContents(key, { namespace_id: ns.id, query: "launch" })).toEqual([
    "Team B's launch is on Monday.",
  ]);
  expect((await storedCounts(ns.id)).memories).toBe(1);
});

test("an argument a tool does not have is refused, not dropped: forget with all_namespaces deletes none", async () => {
  const { key } = await createTenant();
  const here = await createNamespace(key);
  const elsewhere = await createNamespace(key);
  for (const ns of [here, elsewhere]) {
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "The boiler is serviced in May." } });
  }
  const client = await connect(here.id, key);
  const tools = (await client.listTools()).tools;
  for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);

  const widened = await call(client, "forget", { all: true, all_namespaces: true });
  expect(widened.isError).toBe(true);
  expect(widened.text).toContain("all_namespaces");
  const misspelt = await call(client, "recall", { query: "boiler", topk: 1 });
  expect(misspelt.isError).toBe(true);
  expect(misspelt.text).toContain("topk");
  const retargeted = await call(client, "remember", { content: "Stored elsewhere?", namespace_id: elsewhere.id });
  expect(retargeted.isError).toBe(true);
  expect((await storedCounts(here.id)).memories).toBe(1);
  expect((await storedCounts(elsewhere.id)).memories).toBe(1);
});

test("no key → 401; a namespace not granted to the key or of another organization → 404", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  const other = await createTenant("Other");
  const initialize = (authorization?: string) =>
    routeRequest(
      new Request(endpointOf(ns.id), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
        }),
      }),
    );
  expect((await initialize()).status).toBe(401);
  expect((await initialize(`Bearer ${other.key}`)).status).toBe(404);
  const ungranted = await createKey(org.id, { namespaceIds: [] });
  expect((await initialize(`Bearer ${ungranted.secret}`)).status).toBe(404);
  const granted = await initialize(`Bearer ${key}`);
  expect(granted.status).toBe(200);
  expect((await granted.json()).result.serverInfo.name).toBe("memory-gateway");
  await expect(connect(ns.id, other.key)).rejects.toThrow();

  const get = await routeRequest(
    new Request(endpointOf(ns.id), { method: "GET", headers: { authorization: `Bearer ${key}` } }),
  );
  expect(get.status).toBe(405);
  expect(get.headers.get("allow")).toBe("POST, OPTIONS");
  const refusal = (await get.json()).error;
  expect(refusal).toMatchObject({ code: "METHOD_NOT_ALLOWED", message: expect.stringContaining("MCP clients POST") });
  // OPTIONS as on every API route: 204 with Allow, before any key is checked.
  const options = await routeRequest(new Request(endpointOf(ns.id), { method: "OPTIONS" }));
  expect([options.status, options.headers.get("allow")]).toEqual([204, "POST, OPTIONS"]);
});

/** A raw POST to a namespace's MCP endpoint, as an MCP client sends it. */
function post(namespaceId: string, key: string, body: string, headers: Record<string, string> = {}) {
  return routeRequest(
    new Request(endpointOf(namespaceId), {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body,
    }),
  );
}

test("a JSON-RPC batch is refused with a JSON-RPC error and runs nothing: one POST, one message", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const remember = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "remember", arguments: { content: `Batched memory ${id}.` } },
  });
  const batch = await post(ns.id, key, JSON.stringify([remember(1), remember(2), remember(3)]));
  expect(batch.status).toBe(400);
  expect(batch.headers.get("ratelimit-limit")).not.toBeNull();
  const refusal = await batch.json();
  expect(refusal).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
  expect(refusal.error.message).toContain("batches are not supported");
  expect((await storedCounts(ns.id)).memories).toBe(0);
  expect((await post(ns.id, key, "[]")).status).toBe(400);

  // One message per POST still works, and malformed JSON is the transport's usual JSON-RPC parse error.
  const single = await post(ns.id, key, JSON.stringify(remember(4)));
  expect(single.status).toBe(200);
  expect((await single.json()).result.isError).toBeFalsy();
  expect((await storedCounts(ns.id)).memories).toBe(1);
  const malformed = await post(ns.id, key, "{");
  expect(malformed.status).toBe(400);
  expect((await malformed.json()).error.code).toBe(-32700);
  // The transport still refuses a wrong Content-Type (415) and Accept (406) when the body parses.
  expect((await post(ns.id, key, JSON.stringify(remember(5)), { "content-type": "text/plain" })).status).toBe(415);
  expect((await post(ns.id, key, JSON.stringify(remember(6)), { accept: "application/json" })).status).toBe(406);
  expect((await storedCounts(ns.id)).memories).toBe(1);
});

test("the MCP body limit is the API's: past 5 MB → 413 in the envelope", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const { MAX_BODY_BYTES } = await import("@/lib/http/body");
  const pad = "x".repeat(MAX_BODY_BYTES);
  const huge = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad } });
  const response = await post(ns.id, key, huge);
  expect(response.status).toBe(413);
  expect((await response.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
});

test("get_profile: what holds of the person the header names, as the API says; none named: a tool error", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const slot = { namespace_id: ns.id, identity_id: "dana", fact_key: "home_city" };
  await api("POST", "/remember", { key, body: { ...slot, content: "Dana lives in Porto.", valid_at: "2024-03-10" } });
  const lisbon = await api("POST", "/remember", { key, body: { ...slot, content: "Dana lives in Lisbon." } });
  const client = await connect(ns.id, key, { "x-identity-id": "dana" });
  const profile = await call(client, "get_profile", {});
  expect(profile.isError).toBe(false);
  expect(profile.json.facts.map((f: { memory_id: string }) => f.memory_id)).toEqual([lisbon.body.data.id]);
  expect(profile.json.changes).toHaveLength(1);
  const { as_of: _asOf, ...fromApi } = (await api("GET", `/identities/dana/profile?namespace_id=${ns.id}`, { key }))
    .body.data;
  expect(profile.json).toEqual({ ...fromApi, as_of: expect.any(String) });
  const anonymous = await connect(ns.id, key);
  const refused = await call(anonymous, "get_profile", {});
  expect(refused.isError).toBe(true);
  expect(refused.text).toMatch(/^BAD_REQUEST: /);
});
