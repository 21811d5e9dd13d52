// The MCP tools' schemas as strict clients read them: every input schema compiles under Ajv's strict mode and
// under Python's `jsonschema` (whose patterns are Python `re`), with format checks on; a value the server
// accepts passes the schema and then the call over the MCP endpoint, and one the server refuses fails both.
import { spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Ajv, { type AnySchema } from "ajv";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api, routeRequest } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";
import { storedCounts } from "../helpers/memory";

// Debian's Python, which has the jsonschema package (the first python3 on PATH may be another).
const PYTHON = "/usr/bin/python3";
const INSTALL = "apt-get install -y python3-jsonschema";
const pythonMissing = spawnSync(PYTHON, ["-c", "import jsonschema"]).status !== 0;
// A machine without it skips the Python half, saying what to install; CI must have it (.ci/run installs it).
const skipPython = pythonMissing && process.env.CI !== "true";
if (skipPython) console.warn(`[memgw tests] the Python jsonschema checks are skipped: ${INSTALL}`);

type Schema = Record<string, unknown>;
interface Tool {
  name: string;
  inputSchema: Schema;
  outputSchema?: Schema;
}

/** The client's view of a tool call: a value the schema allows, or not. */
type Case = [tool: string, args: Record<string, unknown>];

let client: Client;
let tools: Tool[];
let namespaceId: string;
let memoryId: string;

beforeAll(async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  namespaceId = ns.id;
  const stored = await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "Zoë lives in Kraków" } });
  memoryId = stored.body.data.id;
  client = new Client({ name: "strict-client", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://gateway.test/api/v1/mcp/${ns.id}`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: (input, init) => routeRequest(new Request(input, init)),
  });
  await client.connect(transport);
  tools = (await client.listTools()).tools as Tool[];
}, 120_000);

afterAll(async () => {
  await client?.close();
});

function schemasOf(tool: Tool): [string, Schema][] {
  return [
    [`${tool.name} input`, tool.inputSchema],
    ...(tool.outputSchema ? [[`${tool.name} output`, tool.outputSchema] as [string, Schema]] : []),
  ];
}

/** Ajv in strict mode, for the draft the schema declares (draft-07 unless it says 2020-12), formats checked. */
function strictAjv(schema: Schema) {
  const draft2020 = String(schema.$schema ?? "").includes("2020-12");
  const ajv = draft2020 ? new Ajv2020({ strict: true, allErrors: true }) : new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema as AnySchema);
}

function toolSchema(name: string): Schema {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.inputSchema;
}

/** Every `pattern` in a schema, with where it is. */
function patternsOf(json: unknown, at = ""): [string, string][] {
  if (Array.isArray(json)) return json.flatMap((item, index) => patternsOf(item, `${at}/${index}`));
  if (json === null || typeof json !== "object") return [];
  return Object.entries(json).flatMap(([key, value]) => [
    ...(key === "pattern" && typeof value === "string" ? [[at, value] as [string, string]] : []),
    ...patternsOf(value, `${at}/${key}`),
  ]);
}

/**
 * Runs Python's jsonschema over the schemas: checks each against its draft's meta-schema, compiles each pattern
 * with `re` (and each of `patterns`), and says for each case whether the tool's schema accepts it, with format
 * checks on.
 */
function python(schemas: Record<string, Schema>, cases: Case[], patterns: string[] = []) {
  const script = String.raw`
import json, re, sys
from jsonschema.validators import validator_for
request = json.load(sys.stdin)
problems, valid = [], []
def patterns(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                yield value
            yield from patterns(value)
    elif isinstance(node, list):
        for item in node:
            yield from patterns(item)
validators = {}
for name, schema in request["schemas"].items():
    cls = validator_for(schema)
    try:
        cls.check_schema(schema)
        for pattern in patterns(schema):
            re.compile(pattern)
        validators[name] = cls(schema, format_checker=cls.FORMAT_CHECKER)
    except Exception as error:
        problems.append(f"{name}: {type(error).__name__}: {error}"[:300])
for pattern in request["patterns"]:
    try:
        re.compile(pattern)
    except Exception as error:
        problems.append(f"{pattern[:100]}: {type(error).__name__}: {error}")
for tool, args in request["cases"]:
    validator = validators.get(tool)
    valid.append(None if validator is None else validator.is_valid(args))
json.dump({"problems": problems, "valid": valid}, sys.stdout)
`;
  const run = spawnSync(PYTHON, ["-c", script], {
    input: JSON.stringify({ schemas, cases, patterns }),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { problems: string[]; valid: (boolean | null)[] };
}

/** Values the server accepts: dates alone and full timestamps, names in any script, every optional field. */
function acceptedCases(): Case[] {
  const later = new Date(Date.now() + 86_400_000 * 30).toISOString().slice(0, 10);
  const filters = {
    identity_id: "zoë-łukasiewicz",
    scopes: { team: "équipe-北京" },
    metadata: { source: "chat ✓", turn: 3, pinned: true, note: null },
    session_id: "sess-ünïcode",
    occurred_after: "2023-05-07",
    occurred_before: "2026-05-07T15:56:00.250+02:00",
    context: 1,
  };
  // ask filters by everything recall does but metadata.
  const { metadata: _metadata, ...askFilters } = filters;
  return [
    [
      "remember",
      {
        content: "Zoë prefers 🍵 green tea; 她喜欢绿茶",
        occurred_at: "2024-02-29",
        expires_at: `${later}T12:00:00Z`,
        metadata: { source: "chat", mood: "😊", rating: 4.5, verified: false, extra: null },
        scopes: { team: "ÉQUIPE" },
        identity_id: "zoë-łukasiewicz",
        allow_duplicate: true,
      },
    ],
    ["remember", { content: "Kraków in spring", occurred_at: "2024-03-01T08:30:00-05:30", ttl_seconds: 3600 }],
    [
      "remember",
      {
        session_id: "sess-ünïcode",
        messages: [
          { role: "user", content: "Où est la gare ?", occurred_at: "2024-05-07" },
          { role: "Zoë", content: "À gauche.", occurred_at: "2024-05-07T10:00:01Z", metadata: { lang: "fr" } },
        ],
      },
    ],
    ["recall", { query: "what does Zoë drink?", top_k: 5, min_score: 0.1, entities: ["Zoë"], ...filters }],
    ["recall", { query: "Kraków", occurred_after: "2024-03-01T00:00:00Z" }],
    ["recall_by_entity", { entity: "Kraków", query: "spring", top_k: 3, ...filters }],
    ["recall_by_entity", { entity: "Zoë" }],
    ["ask", { query: "Où est la gare ?", top_k: 3, ...askFilters, entities: ["Zoë"] }],
    ["list_entities", { kind: "person", q: "zo", page_size: 10 }],
    ["forget", { memory_ids: [memoryId], identity_id: "zoë-łukasiewicz", scopes: { team: "x" }, metadata: { a: 1 } }],
    ["add_document", { url: "HTTP://127.0.0.1:9/Guide.pdf", title: "Ünïcode guide", metadata: { k: "v" } }],
  ];
}

/** Values the server refuses, each for one reason a schema can state. */
function refusedCases(): Case[] {
  return [
    ["recall", { query: "tea", occurred_after: "2023-02-29" }], // no such day
    ["recall", { query: "tea", occurred_after: "2023-05-07T10:00:00" }], // no time zone
    ["recall", { query: "tea", occurred_after: "٢٠٢٣-٠٥-٠٧" }], // digits of another script
    ["recall", { query: "tea", occurred_before: "0000-01-01" }], // year 0
    ["ask", { query: "\u200b\u2060" }], // nothing visible
    ["recall_by_entity", { entity: "\u00ad" }],
    ["remember", { content: "\u200b\u2060\u00ad\u200d\u180e" }],
    ["remember", { content: "\ufeff\u3164\ufe0f\u034f \u115f" }],
    ["remember", { content: "tea", identity_id: "zoë\u200b" }], // an invisible character in an identifier
    ["remember", { content: "tea", session_id: "sess-\u{e0041}" }], // a tag character, above U+FFFF
    ["remember", { session_id: "s", messages: [{ role: "user", content: " \u2060 " }] }],
    ["remember", { content: "tea", unknown_field: 1 }],
    ["list_entities", { kind: "planet" }],
    ["add_document", { url: "ftp://example.com/file.pdf" }],
    ["add_document", { url: "https://example.com/a b" }],
  ];
}

test("every tool's schemas compile under Ajv's strict mode, with formats", () => {
  expect(tools.length).toBeGreaterThanOrEqual(7);
  for (const tool of tools) {
    for (const [label, schema] of schemasOf(tool)) {
      expect(() => strictAjv(schema), label).not.toThrow();
    }
  }
});

/** Patterns that a dialect other than ECMAScript's would read differently, or not at all. */
function dialectOnly(found: string[][]) {
  return found.filter(([, pattern]) => /\\(?:[pPsSdDwWbB]|u\{)/.test(pattern.replace(/\\\\/g, "")));
}

test("every pattern uses only what ECMAScript and Python's re read alike (no \\p, \\s, \\d, \\w, \\b, \\u{…})", () => {
  const found = tools.flatMap((tool) =>
    schemasOf(tool).flatMap(([label, schema]) => patternsOf(schema).map(([at, pattern]) => [`${label}${at}`, pattern])),
  );
  expect(found.length).toBeGreaterThan(10);
  expect(dialectOnly(found)).toEqual([]);
});

// The OpenAPI document's schemas are made from the same zod schemas, and generated clients compile them too.
test("so does every pattern of the OpenAPI document, and Python's re compiles each", async () => {
  const document = (await api("GET", "/openapi.json")).body;
  const found = patternsOf(document);
  expect(found.length).toBeGreaterThan(50);
  expect(dialectOnly(found)).toEqual([]);
  if (!skipPython) {
    const compiled = python({}, [], [...new Set(found.map(([, pattern]) => pattern))]);
    expect(compiled.problems).toEqual([]);
  }
});

describe.skipIf(skipPython)("Python's jsonschema", () => {
  test("checks every tool's schemas against their draft and compiles every pattern", () => {
    const schemas = Object.fromEntries(tools.flatMap((tool) => schemasOf(tool)));
    expect(python(schemas, []).problems).toEqual([]);
  });
});

describe("what the server accepts, a validating client sends", () => {
  test("accepted values pass Ajv and Python and then the call over the MCP endpoint", async () => {
    const cases = acceptedCases();
    const schemas = Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema]));
    const byPython = skipPython ? undefined : python(schemas, cases);
    expect(byPython?.problems ?? []).toEqual([]);
    process.env.ALLOW_PRIVATE_OUTBOUND = "true";
    try {
      for (const [index, [name, args]] of cases.entries()) {
        const validate = strictAjv(toolSchema(name));
        expect({ name, args, ajv: validate(args), errors: validate.errors }).toMatchObject({ ajv: true });
        if (byPython) expect({ name, args, python: byPython.valid[index] }).toEqual({ name, args, python: true });
        const result = await client.callTool({ name, arguments: args });
        const text = (result.content as { text: string }[]).map((part) => part.text).join("");
        const outcome = { name, isError: Boolean(result.isError), text };
        expect(outcome).toEqual({ name, isError: false, text: expect.any(String) });
      }
    } finally {
      delete process.env.ALLOW_PRIVATE_OUTBOUND;
    }
  }, 120_000);

  test("refused values fail Ajv and Python, and the server refuses them too", async () => {
    const cases = refusedCases();
    const schemas = Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema]));
    const byPython = skipPython ? undefined : python(schemas, cases);
    const before = await storedCounts(namespaceId);
    for (const [index, [name, args]] of cases.entries()) {
      const validate = strictAjv(toolSchema(name));
      expect({ name, args, ajv: validate(args) }).toEqual({ name, args, ajv: false });
      if (byPython) expect({ name, args, python: byPython.valid[index] }).toEqual({ name, args, python: false });
      const result = await client.callTool({ name, arguments: args });
      expect({ name, args, isError: Boolean(result.isError) }).toEqual({ name, args, isError: true });
    }
    // Nothing was stored by the refused remembers.
    expect(await storedCounts(namespaceId)).toEqual(before);
  }, 120_000);
});
