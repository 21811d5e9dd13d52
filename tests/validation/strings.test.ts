// One string validation for API, MCP, console forms and CLI: U+0000 and unpaired surrogates refused with
// the field named (PostgreSQL cannot store them), names normalized so that look-alikes are the same name.
import fs from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, test } from "vitest";
import { ApiKeyForm } from "@/lib/auth/schemas";
import { SignUpForm } from "@/lib/orgs/schemas";
import { INVISIBLE_RANGES } from "@/lib/validation/strings";
import { api, routeRequest } from "../helpers/api";
import { memgw } from "../helpers/cli";
import { createNamespace, createTenant } from "../helpers/fixtures";
import { newDataDir } from "../helpers/embedded-template";
import { addDocument, processDocuments, uploadDocument } from "../helpers/documents";
import { storedCounts } from "../helpers/memory";

const NUL = "\u0000";
const LONE_SURROGATE = "\ud800";

/** The request's `details` entries, to assert the field a 400 names. */
/** An MCP client of a namespace's endpoint, through the in-process router. */
async function mcpClient(key: string, namespaceId: string): Promise<Client> {
  const client = new Client({ name: "memgw-strings-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://gateway.test/api/v1/mcp/${namespaceId}`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: (input, init) => routeRequest(new Request(input, init)),
    }),
  );
  return client;
}

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
    const client = await mcpClient(key, ns.id);
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

describe("text of only invisible characters is refused like white space, and nothing is stored", () => {
  // The issue's five (zero-width space, word joiner, soft hyphen, zero-width joiner, Mongolian vowel separator),
  // then the rest of the class: the byte-order mark, a variation selector, the combining grapheme joiner, Hangul
  // fillers, tag characters (above U+FFFF), an invisible operator, a musical format character, the blank braille
  // pattern, and invisible characters among white space.
  const INVISIBLE_ONLY = [
    "\u200b",
    "\u2060",
    "\u00ad",
    "\u200d",
    "\u180e",
    "\u200b\u2060\u00ad\u200d\u180e",
    "\ufeff",
    "\ufe0f",
    "\u034f",
    "\u115f\u1160\u3164\uffa0",
    "\u{e0041}\u{e007f}",
    "\u2062",
    "\u{1d173}",
    "\u2800",
    " \u200b\n\t\u2060 ",
  ];

  test("on every path that takes content or a query: 400 naming the field", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const target = { namespace_id: ns.id };
    const kept = await api("POST", "/remember", {
      key,
      body: { ...target, content: "The badge office opens at nine." },
    });
    const before = await storedCounts(ns.id);
    for (const invisible of INVISIBLE_ONLY) {
      const cases: [string, string, Record<string, unknown>, string][] = [
        ["POST", "/remember", { ...target, content: invisible }, "body.content"],
        [
          "POST",
          "/remember",
          { ...target, memories: [{ content: "ok" }, { content: invisible }] },
          "body.memories.1.content",
        ],
        [
          "POST",
          "/remember",
          { ...target, session_id: "s1", messages: [{ role: "user", content: invisible }] },
          "body.messages.0.content",
        ],
        ["PATCH", `/memories/${kept.body.data.id}`, { content: invisible }, "body.content"],
        ["POST", "/recall", { ...target, query: invisible }, "body.query"],
        ["POST", "/ask", { ...target, query: invisible }, "body.query"],
        ["POST", "/documents", { ...target, content: invisible, content_type: "text/plain" }, "body.content"],
        [
          "POST",
          "/documents",
          { ...target, content: "Visible.", content_type: "text/plain", title: invisible },
          "body.title",
        ],
      ];
      for (const [method, route, body, field] of cases) {
        const response = await api(method, route, { key, body });
        const label = { method, route, field, invisible: [...invisible].map((c) => c.codePointAt(0)!.toString(16)) };
        expect({ ...label, status: response.status }).toEqual({ ...label, status: 400 });
        expect(response.body).toMatchObject({ success: false, error: { code: "BAD_REQUEST" } });
        const detail = response.body.error.details.find((d: { field: string }) => d.field === field);
        expect({ ...label, message: detail?.message }).toEqual({
          ...label,
          message: expect.stringMatching(/^must not be empty or only white space and invisible characters \(found U\+/),
        });
      }
    }
    expect(await storedCounts(ns.id)).toEqual(before);
    const memory = await api("GET", `/memories/${kept.body.data.id}`, { key });
    expect(memory.body.data).toMatchObject({ content: "The badge office opens at nine.", version: 1 });
    expect((await api("GET", `/documents?namespace_id=${ns.id}`, { key })).body.data).toEqual([]);
  }, 120_000);

  test("white space alone says so; text with visible characters is stored as sent, invisible ones kept", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const blank = await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: " \n\u3000" } });
    expect(blank.body.error.details).toEqual([
      { field: "body.content", message: "must not be empty or only white space" },
    ]);
    const content = "\u200bco\u00adop\u00ader\u2060ate \u{1f469}\u200d\u{1f4bb} \ufe0f";
    const stored = await api("POST", "/remember", { key, body: { namespace_id: ns.id, content } });
    expect(stored.status).toBe(201);
    expect((await api("GET", `/memories/${stored.body.data.id}`, { key })).body.data.content).toBe(content);
    const patched = await api("PATCH", `/memories/${stored.body.data.id}`, { key, body: { content: "\u2060x\u200b" } });
    expect(patched.status).toBe(200);
    expect((await api("GET", `/memories/${stored.body.data.id}`, { key })).body.data.content).toBe("\u2060x\u200b");
    const recalled = await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "\u200bx" } });
    expect(recalled.status).toBe(200);
  });

  test("MCP remember, recall and ask: an error result naming the field, and nothing stored", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const client = await mcpClient(key, ns.id);
    try {
      const calls: [string, Record<string, unknown>, string][] = [
        ["remember", { content: "\u200b\u2060\u00ad\u200d\u180e" }, "content"],
        ["remember", { session_id: "s1", messages: [{ role: "user", content: "\ufeff" }] }, "messages[0].content"],
        ["recall", { query: "\u2060" }, "query"],
        ["ask", { query: "\u{e0041}" }, "query"],
      ];
      for (const [name, args, field] of calls) {
        const result = await client.callTool({ name, arguments: args });
        expect({ name, isError: result.isError }).toEqual({ name, isError: true });
        const text = (result.content as { text: string }[]).map((part) => part.text).join("");
        expect(text).toContain(field);
        expect(text).toMatch(/invisible characters/);
      }
      const visible = await client.callTool({ name: "remember", arguments: { content: "\u200bvisible\u2060" } });
      expect(visible.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const listed = await api("GET", `/memories?namespace_id=${ns.id}`, { key });
    expect(listed.body.data.map((m: { content: string }) => m.content)).toEqual(["\u200bvisible\u2060"]);
  });

  test("a document whose text is only invisible characters fails as having no text, storing nothing", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const invisible = "\u200b\u2060\n\n\u00ad\u200d\u180e\ufeff\n";
    const uploaded = await uploadDocument(
      key,
      { bytes: new TextEncoder().encode(invisible), name: "blank.txt", type: "text/plain" },
      { namespace_id: ns.id },
    );
    expect(uploaded.status).toBe(202);
    // Visible markup, invisible text: "#" and "-" are Markdown, not words.
    const markdown = await addDocument(key, {
      namespace_id: ns.id,
      content: "# \u200b\n\n- \u2060\u00ad\n",
      content_type: "text/markdown",
    });
    // Beside them, one with real text among invisible characters is read, the zero-width space kept (the soft
    // hyphen is one that document extraction removes from every text, as it splits words in search).
    const real = await addDocument(key, {
      namespace_id: ns.id,
      content: "# Office\u200b hours\n\nThe badge\u00ad office opens at nine.\n",
      content_type: "text/markdown",
    });
    await processDocuments();
    for (const id of [uploaded.body.data.id, markdown.id]) {
      const document = await api("GET", `/documents/${id}`, { key });
      expect(document.body.data).toMatchObject({ status: "failed", error: expect.stringMatching(/No text was found/) });
    }
    const listed = await api("GET", `/memories?namespace_id=${ns.id}`, { key });
    expect(listed.body.data.map((m: { content: string }) => m.content)).toEqual([
      "Office\u200b hours\nThe badge office opens at nine.",
    ]);
    expect((await api("GET", `/documents/${real.id}`, { key })).body.data.status).toBe("ready");
  });

  test("the table of invisible characters holds every code point the engine counts as Cc, Cf, Zl, Zp or DI", () => {
    const engine = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{DI}]/u;
    const inTable = (codePoint: number) =>
      INVISIBLE_RANGES.some(([first, last]) => codePoint >= first && codePoint <= last);
    const missing: string[] = [];
    for (let codePoint = 1; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      if (engine.test(String.fromCodePoint(codePoint)) && !inTable(codePoint)) missing.push(codePoint.toString(16));
    }
    expect(missing).toEqual([]);
  });
});
