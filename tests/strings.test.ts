// One string validation for API, MCP, console forms and CLI: U+0000 and unpaired surrogates refused with
// the field named (PostgreSQL cannot store them), names normalized so that look-alikes are the same name.
import fs from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, test } from "vitest";
import { ApiKeyForm } from "@/lib/auth/schemas";
import { SignUpForm } from "@/lib/orgs/schemas";
import { api, routeRequest } from "./helpers/api";
import { memgw } from "./helpers/cli";
import { createNamespace, createTenant } from "./helpers/fixtures";
import { newDataDir } from "./helpers/embedded-template";

const NUL = "\u0000";
const LONE_SURROGATE = "\ud800";

/** The request's `details` entries, to assert the field a 400 names. */
function fields(response: { body: { error?: { details?: { field: string }[] } } }) {
  return (response.body.error?.details ?? []).map((d) => d.field);
}

describe("U+0000 and unpaired surrogates in any string field get 400 naming the field, and nothing is stored", () => {
  for (const [label, bad] of [
    ["U+0000", `a${NUL}b`],
    ["a lone surrogate", `a${LONE_SURROGATE}b`],
  ] as const) {
    test(`${label} in memory operation fields`, async () => {
      const { key } = await createTenant();
      const ns = await createNamespace(key, { external_reference_id: "crm-1" });
      const target = { namespace_id: ns.id };
      const cases: [string, Record<string, unknown>, string][] = [
        ["/remember", { ...target, content: bad }, "body.content"],
        ["/remember", { ...target, content: "ok", metadata: { [bad]: 1 } }, `body.metadata.${bad}`],
        ["/remember", { ...target, content: "ok", metadata: { topic: bad } }, "body.metadata.topic"],
        ["/remember", { ...target, content: "ok", scopes: { [bad]: "x" } }, `body.scopes.${bad}`],
        ["/remember", { ...target, content: "ok", scopes: { team: bad } }, "body.scopes.team"],
        ["/remember", { ...target, content: "ok", identity_id: bad }, "body.identity_id"],
        ["/remember", { ...target, memories: [{ content: "ok" }, { content: bad }] }, "body.memories.1.content"],
        ["/remember", { namespace_id: bad, content: "ok" }, "body.namespace_id"],
        ["/remember", { external_reference_id: bad, content: "ok" }, "body.external_reference_id"],
        ["/recall", { ...target, query: bad }, "body.query"],
        ["/recall", { ...target, query: "ok", metadata: { topic: bad } }, "body.metadata.topic"],
        ["/ask", { ...target, query: bad }, "body.query"],
        ["/ask", { ...target, query: "ok", identity_id: bad }, "body.identity_id"],
        ["/forget", { ...target, memory_ids: ["mem_1", bad] }, "body.memory_ids.1"],
        ["/forget", { ...target, scopes: { team: bad } }, "body.scopes.team"],
      ];
      for (const [route, body, field] of cases) {
        const response = await api("POST", route, { key, body });
        expect({ route, field, status: response.status }).toEqual({ route, field, status: 400 });
        expect(response.body).toMatchObject({ success: false, error: { code: "BAD_REQUEST" } });
        expect(fields(response)).toContain(field);
      }
      const stored = await api("POST", "/forget", { key, body: { ...target, all: true } });
      expect(stored.body.data.deleted).toBe(0);
    }, 120_000);

    test(`${label} in namespace and grant fields`, async () => {
      const { key } = await createTenant();
      const ns = await createNamespace(key, { name: "kept" });
      const cases: [string, string, Record<string, unknown>, string][] = [
        ["POST", "/namespaces", { name: bad }, "body.name"],
        ["POST", "/namespaces", { name: "n1", description: bad }, "body.description"],
        ["POST", "/namespaces", { name: "n2", external_reference_id: bad }, "body.external_reference_id"],
        ["PATCH", `/namespaces/${ns.id}`, { name: bad }, "body.name"],
        ["PATCH", `/namespaces/${ns.id}`, { description: bad }, "body.description"],
        ["POST", `/namespaces/${ns.id}/grants`, { api_key_id: bad }, "body.api_key_id"],
        ["POST", `/namespaces/${ns.id}/grants`, { user_id: bad }, "body.user_id"],
      ];
      for (const [method, route, body, field] of cases) {
        const response = await api(method, route, { key, body });
        expect({ method, route, field, status: response.status }).toEqual({ method, route, field, status: 400 });
        expect(fields(response)).toContain(field);
      }
      const list = await api("GET", "/namespaces", { key });
      expect(list.body.data.map((n: { name: string }) => n.name)).toEqual(["kept"]);
      expect(list.body.data[0].description).toBeNull();
    });
  }

  test("U+0000 in path ids and query strings", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const cases: [string, string, string][] = [
      ["GET", "/namespaces/ns%00x", "path.id"],
      ["DELETE", "/namespaces/ns%00x", "path.id"],
      ["GET", "/namespaces/ns%00x/grants", "path.id"],
      ["DELETE", `/namespaces/${ns.id}/grants/gr%00x`, "path.grantId"],
      ["GET", "/memories/mem%00x", "path.id"],
      ["GET", "/namespaces?page=%00", "query.page"],
    ];
    for (const [method, route, field] of cases) {
      const response = await api(method, route, { key });
      expect({ route, status: response.status }).toEqual({ route, status: 400 });
      expect(fields(response)).toContain(field);
    }
    expect((await api("GET", `/namespaces/${ns.id}`, { key })).status).toBe(200);
  });

  test("a JSON key holding U+0000 in a strict body is refused as an unknown field", async () => {
    const { key } = await createTenant();
    const response = await api("POST", "/namespaces", { key, rawBody: '{"name":"x","na\\u0000me":"y"}' });
    expect(response.status).toBe(400);
    expect((await api("GET", "/namespaces", { key })).body.pagination.total).toBe(0);
  });

  test("the MCP endpoint: a tool call with U+0000 gets an error result, and a path id with it a 400", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const client = new Client({ name: "memgw-strings-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://gateway.test/api/v1/mcp/${ns.id}`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
        fetch: (input, init) => routeRequest(new Request(input, init)),
      }),
    );
    try {
      const refused = [
        { content: `a${NUL}b` },
        { content: "ok", metadata: { [`k${NUL}`]: "v" } },
        { content: `a${LONE_SURROGATE}` },
      ];
      for (const args of refused) {
        const result = await client.callTool({ name: "remember", arguments: args });
        expect(result.isError).toBe(true);
        expect(JSON.stringify(result.content)).toMatch(/U\+0000|surrogate/);
      }
      const recall = await client.callTool({ name: "recall", arguments: { query: `x${NUL}` } });
      expect(recall.isError).toBe(true);
    } finally {
      await client.close();
    }
    expect((await api("POST", "/forget", { key, body: { namespace_id: ns.id, all: true } })).body.data.deleted).toBe(0);

    const response = await routeRequest(
      new Request("http://gateway.test/api/v1/mcp/ns%00x", {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error.details[0].field).toBe("path.namespace_id");
  });
});

describe("names that look the same are the same name", () => {
  test("namespace names are NFC-normalized and trimmed, so NFD and padded twins conflict (409)", async () => {
    const { key } = await createTenant();
    const created = await api("POST", "/namespaces", { key, body: { name: "  Caf\u00e9 notes\t".replace("\t", " ") } });
    expect(created.status).toBe(201);
    expect(created.body.data.name).toBe("Caf\u00e9 notes");
    for (const twin of [
      "Cafe\u0301 notes",
      "Caf\u00e9 notes  ",
      "\u3000Caf\u00e9 notes",
      "Caf\u00e9\u00a0notes",
      "Caf\u00e9\u3000notes",
    ]) {
      const response = await api("POST", "/namespaces", { key, body: { name: twin } });
      expect({ twin, status: response.status }).toEqual({ twin, status: 409 });
    }
    const other = await createNamespace(key, { name: "other" });
    const renamed = await api("PATCH", `/namespaces/${other.id}`, { key, body: { name: "Cafe\u0301 notes" } });
    expect(renamed.status).toBe(409);
    expect((await api("GET", "/namespaces", { key })).body.pagination.total).toBe(2);
  });

  test("zero-width, bidirectional-override, control and white-space-only names are refused with 400", async () => {
    const { key } = await createTenant();
    const invisible = ["sales\u200b", "\u202Egnp.exe", "a\u2066b\u2069", "line\nbreak", "tab\there", "\ufeffbom"];
    invisible.push("soft\u00adhyphen", "prod\ufe0f", "prod\u034f", "prod\u{e0100}", "\u3164", "\u2800", "a\u115fb");
    for (const name of [...invisible, "   "]) {
      const response = await api("POST", "/namespaces", { key, body: { name } });
      expect({ name, status: response.status }).toEqual({ name, status: 400 });
      expect(fields(response)).toEqual(["body.name"]);
    }
    expect((await api("GET", "/namespaces", { key })).body.pagination.total).toBe(0);
    // Visible characters of any script, and emoji without joiners, are names like any other.
    for (const name of ["日本語のメモ", "Ελληνικά", "🚀 launch", "مذكرات"]) {
      expect((await api("POST", "/namespaces", { key, body: { name } })).status).toBe(201);
    }
  });

  test("console forms: organization and key names get the same rules", () => {
    const form = { email: "a@example.com", password: "long enough" };
    const signUp = SignUpForm.safeParse({ ...form, organization: "Acme\u200b" });
    expect(signUp.success).toBe(false);
    expect(signUp.error!.issues[0].path).toEqual(["organization"]);
    const keyForm = { permissions: ["NAMESPACE_READ"], scopes: {}, namespace_ids: [] };
    const key = ApiKeyForm.parse({ ...keyForm, name: " Cafe\u0301 key " });
    expect(key.name).toBe("Caf\u00e9 key");
    const badScope = ApiKeyForm.safeParse({ ...keyForm, name: "k", scopes: { team: `a${NUL}` } });
    expect(badScope.success).toBe(false);
  });

  test("the CLI refuses an organization name with a zero-width character and normalizes the others", async () => {
    const dir = newDataDir("memgw-strings-cli-");
    try {
      const refused = await memgw(["org", "create", "--name", "a\u200b"], { DATA_DIR: dir });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/--name: must not contain control, zero-width or bidirectional-override/);
      expect(refused.stderr).toContain("(found U+200B)");
      const created = await memgw(["org", "create", "--name", "  Cafe\u0301  "], { DATA_DIR: dir });
      expect(created.code).toBe(0);
      expect(created.json.name).toBe("Caf\u00e9");
      const keyArgs = ["--org", created.json.id, "--name", "k", "--permissions", "NAMESPACE_READ"];
      keyArgs.push("--scope", "team=sa\u202Eles");
      const key = await memgw(["key", "create", ...keyArgs], { DATA_DIR: dir });
      expect(key.code).toBe(2);
      expect(key.stderr).toMatch(/--scope: .*U\+202E/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
