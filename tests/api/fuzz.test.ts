// A bounded, seeded fuzz of every operation in the OpenAPI document, through the real route modules:
// requests generated from the document's own schemas, valid ones and broken ones. Whatever comes back must
// be < 500, a status the document lists for the operation, and a body valid against its documented schema;
// a request the document calls valid must not get 400, and one it calls invalid (sent with a good key) must.
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { beforeAll, expect, test } from "vitest";
import { openApiDocument } from "@/lib/api/openapi";
import { api, routeRequest } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";

const SEED = 0x5eed_1234;
/** Requests per operation (half valid, half broken); remember/recall/ask embed, so keep it bounded. */
const REQUESTS_PER_OPERATION = 40;
const REQUESTS_PER_REFUSED_METHOD = 3;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
// JSON Schema nodes of any shape.
type Schema = Record<string, any>;

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}

const random = prng(SEED);
const doc = openApiDocument() as unknown as Schema;
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);
ajv.addSchema(doc, "openapi");

const escapePointer = (part: string) => part.replace(/~/g, "~0").replace(/\//g, "~1");
const unescapePointer = (part: string) => part.replace(/~1/g, "/").replace(/~0/g, "~");
const validators = new Map<string, (value: unknown) => boolean>();

/** A validator for the schema at a place in the document, e.g. ("paths", "/recall", "post", ...). */
function validatorAt(...parts: string[]) {
  const ref = `openapi#/${parts.map(escapePointer).join("/")}`;
  if (!validators.has(ref)) {
    const validate = ajv.compile({ $ref: ref });
    validators.set(ref, (value) => {
      const valid = validate(value) as boolean;
      lastErrors = ajv.errorsText(validate.errors);
      return valid;
    });
  }
  return validators.get(ref)!;
}
let lastErrors = "";

function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const parts = (schema.$ref as string).replace(/^#\//, "").split("/").map(unescapePointer);
  return resolve(parts.reduce((node: Schema, part) => node[part], doc));
}

// ---------- values from a JSON Schema ----------

const ASCII = "abcdefghijklmnopqrstuvwxyz0123456789 -_.:";
/** Visible characters of several scripts (NFC and NFD spellings included) and plain ASCII. */
const ALPHABET = [...ASCII, "é", "e\u0301", "日", "本", "Ω", "ß", "🚀", "ا"];

function randomText(min: number, max: number): string {
  for (;;) {
    const length = random.int(min, Math.min(max, min + 24));
    let text = "";
    while ([...text].length < length) text += random.pick(ALPHABET);
    text = [...text].slice(0, length).join("");
    if (text.length >= min && text.length <= max && (min === 0 || text.trim().length > 0)) return text;
  }
}

/** Values the fixtures made, by property name (or `path:parameter`), so valid requests reach success too. */
const known: Record<string, string[]> = {};

function generate(schemaIn: Schema, name = "", depth = 0): Json {
  const schema = resolve(schemaIn);
  if ("const" in schema) return schema.const;
  if (schema.enum) return random.pick(schema.enum);
  if (schema.type === "object" || schema.properties) return generateObject(schema, depth);
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches) return generate(random.pick(branches), name, depth + 1);
  const type = Array.isArray(schema.type) ? random.pick(schema.type as string[]) : schema.type;
  switch (type) {
    case "string": {
      if (known[name]?.length && random.chance(0.75)) return random.pick(known[name]);
      // Times in the future: an expiry must be one (a rule no JSON Schema states), and any other time may be.
      if (schema.format === "date-time" || schema.format === "date") {
        const time = new Date(
          Date.UTC(random.int(2030, 2999), random.int(0, 11), random.int(1, 28), random.int(0, 23)),
        );
        return schema.format === "date" ? time.toISOString().slice(0, 10) : time.toISOString();
      }
      const pattern = schema.pattern ? new RegExp(schema.pattern, "u") : undefined;
      for (let attempt = 0; attempt < 50; attempt++) {
        const text = randomText(schema.minLength ?? 0, schema.maxLength ?? 40);
        if (!pattern || pattern.test(text)) return text;
      }
      // A pattern random text rarely meets (a URL, "owner/name"): a value the fixtures know of.
      if (known[name]?.length) return random.pick(known[name]);
      throw new Error(`cannot generate a string for ${JSON.stringify(schema)}`);
    }
    case "integer":
    case "number": {
      const min = schema.minimum ?? -1000;
      const max = Math.min(schema.maximum ?? 1000, min + 1000);
      const value = random.chance(0.3) ? random.pick([min, max]) : min + random.next() * (max - min);
      return type === "integer" ? Math.round(value) : value;
    }
    case "boolean":
      return random.chance(0.5);
    case "null":
      return null;
    case "array": {
      if (known[name]?.length) return [random.pick(known[name])];
      const count = random.int(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, (schema.minItems ?? 0) + 2));
      return Array.from({ length: count }, () => generate(schema.items ?? {}, name, depth + 1));
    }
    default:
      return random.pick<Json>(["x", 1, true, null]);
  }
}

/** The properties one branch of a oneOf requires (a nested anyOf: one of its branches). */
function requiredOf(branch: Schema): string[] {
  if (branch.required) return branch.required;
  if (branch.anyOf) return requiredOf(random.pick(branch.anyOf));
  return [];
}

/** Every property any part of a branch requires: what must stay out when another branch is chosen. */
function mentionedBy(branch: Schema): string[] {
  return [...(branch.required ?? []), ...((branch.anyOf ?? []) as Schema[]).flatMap(mentionedBy)];
}

function generateObject(schema: Schema, depth: number): { [key: string]: Json } {
  const properties: Record<string, Schema> = schema.properties ?? {};
  const chosen = new Set<string>(schema.required ?? []);
  const excluded = new Set<string>();
  const rules: Schema[] = [...(schema.allOf ?? []), ...(schema.oneOf ? [{ oneOf: schema.oneOf }] : [])];
  for (const { oneOf } of rules) {
    if (!oneOf) continue;
    const branch = random.pick(oneOf as Schema[]);
    for (const property of requiredOf(branch)) chosen.add(property);
    for (const other of oneOf as Schema[]) if (other !== branch) mentionedBy(other).forEach((p) => excluded.add(p));
  }
  for (const property of Object.keys(properties)) {
    if (!excluded.has(property) && !chosen.has(property) && random.chance(0.35)) chosen.add(property);
  }
  const value: { [key: string]: Json } = {};
  for (const property of chosen) {
    if (properties[property]) value[property] = generate(properties[property], property, depth + 1);
  }
  if (!schema.properties && schema.additionalProperties && depth < 4) {
    const count = random.int(schema.minProperties ?? 0, Math.min(schema.maxProperties ?? 3, 3));
    for (let i = 0; i < count; i++) {
      const key = generate(schema.propertyNames ?? { type: "string", minLength: 1, maxLength: 12 }) as string;
      value[key] = generate(schema.additionalProperties, key, depth + 1);
    }
  }
  return value;
}

// ---------- breaking a valid request ----------

const BAD_CHARACTERS = ["\u0000", "\ud800", "\udfff"];
const ODD_STRINGS = ["", " ", "a\u0000b", "\ud800", "x\udc00y", "\u202Eevil", "zero\u200bwidth", "NaN"];
ODD_STRINGS.push("a".repeat(5000));
const ODD_VALUES: Json[] = [null, true, 0, -1, 1.5, 1e308, -1e308, [], {}, [null], { nested: { x: "y" } }];
ODD_VALUES.push(...ODD_STRINGS);
const ODD_PATH_IDS = ["a\u0000b", "\u202E", "a/b", "a".repeat(300), "%", " ", "🚀\u200b"];
const ODD_QUERY_VALUES = ["0", "-1", "abc", "1.5", "NaN", "1e309", "", "\u0000", "101"];
ODD_QUERY_VALUES.push("9007199254740991", "2147483648");

function pathsIn(value: Json, at: string[] = []): string[][] {
  if (!value || typeof value !== "object") return [at];
  const children = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value);
  return [at, ...children.flatMap((child) => pathsIn((value as Record<string, Json>)[child], [...at, child]))];
}

/** One mutation: an extra or odd key, a missing property, a bad character, a wrongly typed value. */
function breakValue(original: Json): Json {
  const value = structuredClone(original);
  if (!value || typeof value !== "object" || Array.isArray(value)) return random.pick(ODD_VALUES);
  const candidates = pathsIn(value).filter((p) => p.length > 0);
  const mutation = random.int(0, 4);
  if (mutation === 0 || candidates.length === 0) {
    value[random.pick(["unexpected", "a\u0000key", "\ud800", "constructor"])] = random.pick(ODD_VALUES);
    return value;
  }
  const target = random.pick(candidates);
  // Walking the generated JSON, of any shape.
  const parent = target.slice(0, -1).reduce<any>((node, key) => node[key], value);
  const key = target[target.length - 1];
  if (mutation === 1 && !Array.isArray(parent)) delete parent[key];
  else if (mutation === 2 && typeof parent[key] === "string") parent[key] += random.pick(BAD_CHARACTERS);
  else if (mutation === 3 && !Array.isArray(parent)) {
    parent[`${key}${random.pick(BAD_CHARACTERS)}`] = parent[key];
    delete parent[key];
  } else parent[key] = random.pick(ODD_VALUES);
  return value;
}

// ---------- requests, responses and the checks ----------

interface Operation {
  path: string;
  method: string;
  spec: Schema;
}

interface FuzzRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: string;
  /** What the document says of it: valid, invalid, or nothing (undeclared query parameters, MCP bodies). */
  valid: boolean | undefined;
  authorized: boolean;
}

interface Sent {
  status: number;
  body: unknown;
  text: string;
}

const operations: Operation[] = Object.entries(doc.paths as Record<string, Record<string, Schema>>).flatMap(
  ([path, item]) => Object.entries(item).map(([method, spec]) => ({ path, method, spec })),
);

let key: string;
const failures: string[] = [];
const statuses: Record<number, number> = {};

async function send(op: Operation, request: FuzzRequest): Promise<Sent> {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.params[name] ?? "x"));
  const query = new URLSearchParams(request.query).toString();
  const url = `http://gateway.test/api/v1${path}${query ? `?${query}` : ""}`;
  const response = await routeRequest(
    new Request(url, { method: op.method.toUpperCase(), headers: request.headers, body: request.body }),
  );
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, body, text };
}

function check(op: Operation, request: FuzzRequest, sent: Sent) {
  statuses[sent.status] = (statuses[sent.status] ?? 0) + 1;
  const sentAs = `params ${JSON.stringify(request.params)}, query ${JSON.stringify(request.query)}`;
  const where = `${op.method.toUpperCase()} ${op.path} (${sentAs}, body ${(request.body ?? "").slice(0, 200)})`;
  const answer = `${sent.status} ${sent.text.slice(0, 300)}`;
  if (sent.status >= 500) return failures.push(`5xx: ${where} → ${answer}`);
  const documented = op.spec.responses[String(sent.status)];
  if (!documented) return failures.push(`undocumented status: ${where} → ${answer}`);
  if (documented.content?.["application/json"]?.schema) {
    const at = ["paths", op.path, op.method, "responses", String(sent.status), "content", "application/json", "schema"];
    const validate = validatorAt(...at);
    if (!validate(sent.body)) return failures.push(`body not as documented (${lastErrors}): ${where} → ${answer}`);
  } else if (documented.content?.["application/x-ndjson"]?.schema) {
    const at = ["paths", op.path, op.method, "responses", String(sent.status), "content", "application/x-ndjson"];
    const validate = validatorAt(...at, "schema");
    for (const line of sent.text.split("\n").filter((line) => line.length > 0)) {
      if (!validate(JSON.parse(line))) return failures.push(`line not as documented (${lastErrors}): ${where}`);
    }
  } else if (sent.text) {
    return failures.push(`a body where none is documented: ${where} → ${answer}`);
  }
  if (!request.authorized || request.valid === undefined) return;
  if (request.valid && sent.status === 400) failures.push(`valid by the document, yet 400: ${where} → ${answer}`);
  if (!request.valid && ![400, 413, 429].includes(sent.status)) {
    failures.push(`invalid by the document, yet: ${where} → ${answer}`);
  }
}

/** Whether the document accepts these path parameters and query string (undefined: it does not say). */
function parametersValid(op: Operation, request: Pick<FuzzRequest, "params" | "query">): boolean | undefined {
  const declared = (op.spec.parameters ?? []) as Schema[];
  const names = new Set(declared.filter((p) => p.in === "query").map((p) => p.name));
  if (undecidedByDocument(names, request.query)) return undefined;
  for (const parameter of declared) {
    const value = { path: request.params, query: request.query }[parameter.in as string]?.[parameter.name];
    if (value === undefined) continue;
    const schema = resolve(parameter.schema ?? {});
    const numeric = (schema.type === "integer" || schema.type === "number") && /^-?\d+(\.\d+)?(e\d+)?$/i.test(value);
    if (!ajv.validate(schema, numeric ? Number(value) : value)) return false;
  }
  // A query parameter the document does not declare: OpenAPI neither allows nor forbids it.
  return Object.keys(request.query).every((name) => names.has(name)) ? true : undefined;
}

/**
 * What a query string's parameters cannot say on their own (OpenAPI has no rule across parameters, and
 * a pair's `key:value` syntax or a cursor's origin is prose in their descriptions): the document does
 * not decide such a request, and only the statuses and bodies are checked.
 */
function undecidedByDocument(declared: Set<string>, query: Record<string, string>): boolean {
  const targets = ["namespace_id", "external_reference_id"].filter((name) => name in query).length;
  if (declared.has("namespace_id") && targets !== 1) return true;
  return ["scope", "metadata", "cursor", "after"].some((name) => name in query);
}

const MCP_MESSAGES: Json[] = [
  { jsonrpc: "2.0", id: 1, method: "tools/list" },
  { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "recall", arguments: { query: "tea" } } },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "remember", arguments: { content: "a\u0000b" } } },
  { jsonrpc: "2.0", id: 4, method: "no/such/method" },
  { jsonrpc: "2.0", method: "notifications/initialized" },
];

/** An export of the fuzz namespace: what an import takes (lines of NDJSON, which no JSON Schema decides). */
let exportedLines: string[] = [];

function ndjsonBodyFor(wantValid: boolean): { body: string; valid: undefined; contentType: string } {
  const lines = [...exportedLines];
  if (!wantValid) {
    const at = random.int(0, lines.length);
    lines[at] = random.pick(["{", "[]", "null", '{"content":"\u0000"}', JSON.stringify(generate({ type: "object" }))]);
  }
  return { body: lines.join("\n") + "\n", valid: undefined, contentType: "application/x-ndjson" };
}

function bodyFor(op: Operation, wantValid: boolean): { body: string; valid?: boolean; contentType: string } {
  if (op.spec.requestBody.content["application/x-ndjson"]) return ndjsonBodyFor(wantValid);
  const bodyPath = ["paths", op.path, op.method, "requestBody", "content", "application/json", "schema"];
  const schema = op.spec.requestBody.content["application/json"].schema;
  let value: Json;
  if (op.path.startsWith("/mcp/")) value = random.pick(MCP_MESSAGES);
  else {
    value = generate(schema);
    for (let attempt = 0; attempt < 20 && !validatorAt(...bodyPath)(value); attempt++) value = generate(schema);
  }
  if (!wantValid) value = breakValue(value);
  if (!wantValid && random.chance(0.15)) {
    const malformed = random.pick(["{", "[]", '"text"', "null", "", '{"a":1}}']);
    return { body: malformed, valid: false, contentType: "application/json" };
  }
  if (!wantValid && random.chance(0.05)) {
    return { body: JSON.stringify(value), valid: false, contentType: "text/plain" };
  }
  return { body: JSON.stringify(value), valid: validatorAt(...bodyPath)(value), contentType: "application/json" };
}

function requestFor(op: Operation, wantValid: boolean): FuzzRequest {
  const params: Record<string, string> = {};
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  for (const parameter of (op.spec.parameters ?? []) as Schema[]) {
    const schema = resolve(parameter.schema ?? {});
    const hint = known[`${op.path}:${parameter.name}`];
    if (parameter.in === "path") {
      const value = hint && random.chance(0.8) ? random.pick(hint) : generate(schema, parameter.name);
      params[parameter.name] = String(value);
    } else if (parameter.in === "query" && (parameter.required || random.chance(0.5))) {
      query[parameter.name] = String(generate(schema, parameter.name));
    } else if (parameter.in === "header" && (parameter.required || random.chance(0.5))) {
      // Header values are bytes: ASCII ones only.
      headers[parameter.name.toLowerCase()] =
        parameter.name === "Accept" ? "application/json, text/event-stream" : random.pick(["alice", "user-42"]);
    }
  }
  if (!wantValid && Object.keys(params).length && random.chance(0.4)) {
    params[random.pick(Object.keys(params))] = random.pick(ODD_PATH_IDS);
  } else if (!wantValid && op.method === "get" && random.chance(0.5)) {
    query[random.pick(["page", "page_size", "unexpected"])] = random.pick(ODD_QUERY_VALUES);
  }
  // Broken authentication on one request in eight.
  const authorized = !op.spec.security || random.chance(7 / 8);
  if (op.spec.security) {
    const wrong = random.pick(["Bearer mgw_notAKey", "Basic eDp5", "Bearer ", `Bearer ${key}\u00e9`, undefined]);
    const authorization = authorized ? `Bearer ${key}` : wrong;
    if (authorization !== undefined) headers.authorization = authorization;
  }
  let valid = parametersValid(op, { params, query });
  let body: string | undefined;
  if (op.spec.requestBody) {
    const generated = bodyFor(op, wantValid);
    body = generated.body;
    headers["content-type"] = generated.contentType;
    if (valid !== undefined) valid &&= generated.valid;
  }
  // A state and code are valid only as the provider issued them: no schema can say which (a wrong one is a 400).
  const saysNothing =
    op.path.startsWith("/mcp/") ||
    (op.spec.tags ?? []).includes("Not allowed") ||
    op.path === "/integrations/connections/{id}/complete" ||
    op.path === "/integrations/callback";
  return { params, query, headers, body, valid: saysNothing ? undefined : valid, authorized };
}

beforeAll(async () => {
  const tenant = await createTenant("Fuzz");
  key = tenant.key;
  const ns = await createNamespace(key, { name: "fuzz-main", external_reference_id: "fuzz-ref" });
  const content = "The fuzzer remembers that tea is green.";
  const remembered = await api("POST", "/remember", { key, body: { namespace_id: ns.id, content } });
  const grants = await api("GET", `/namespaces/${ns.id}/grants`, { key });
  // A configured provider (nothing is fetched before a code is exchanged), and a pending connection.
  process.env.GITHUB_CLIENT_ID = "fuzz-client";
  process.env.GITHUB_CLIENT_SECRET = "fuzz-secret";
  const connection = await api("POST", "/integrations/connections", {
    key,
    body: { provider: "github", namespace_id: ns.id },
  });
  const connectionId = connection.body.data.connection.id;
  Object.assign(known, {
    redirect_uri: ["https://app.example.com/integrations/callback", "http://localhost:8080/cb"],
    repositories: ["octo-org/handbook"],
    // A public address (no name to resolve offline): the document is queued, never fetched here.
    url: ["https://198.51.101.7/handbook.html"],
    channels: ["C0123ABCD"],
    // The feed's event types, comma-separated.
    type: ["memory.created", "memory.created,memory.deleted,namespace.updated"],
    folder_id: ["1AbCdEfGh_ij-KL"],
    "/integrations/connections/{id}:id": [connectionId],
    "/integrations/connections/{id}/complete:id": [connectionId],
    "/integrations/connections/{id}/sync:id": [connectionId],
    "/integrations/connections/{id}/reconnect:id": [connectionId],
    namespace_id: [ns.id],
    external_reference_id: ["fuzz-ref"],
    memory_ids: [remembered.body.data.id],
    api_key_id: [tenant.keyId],
    "/namespaces/{id}:id": [ns.id],
    "/namespaces/{id}/grants:id": [ns.id],
    "/namespaces/{id}/grants/{grantId}:id": [ns.id],
    "/namespaces/{id}/grants/{grantId}:grantId": [grants.body.data[0].id],
    "/memories/{id}:id": [remembered.body.data.id],
    "/mcp/{namespace_id}:namespace_id": [ns.id],
    "/memories/{id}/history:id": [remembered.body.data.id],
    "/namespaces/{id}/export:id": [ns.id],
    "/namespaces/{id}/import:id": [ns.id],
  });
  const exported = await routeRequest(
    new Request(`http://gateway.test/api/v1/namespaces/${ns.id}/export`, {
      headers: { authorization: `Bearer ${key}` },
    }),
  );
  exportedLines = (await exported.text()).split("\n").filter((line) => line.length > 0);
});

test("every operation of the OpenAPI document: no 5xx, every status documented, every body as documented", async () => {
  const started = performance.now();
  // Destructive operations last (the namespace itself at the very end), so the fixtures serve the others.
  const rank = (op: Operation) => (op.method === "delete" ? (op.path === "/namespaces/{id}" ? 2 : 1) : 0);
  let sent = 0;
  for (const op of [...operations].sort((a, b) => rank(a) - rank(b))) {
    const refused = (op.spec.tags ?? []).includes("Not allowed");
    const count = refused ? REQUESTS_PER_REFUSED_METHOD : REQUESTS_PER_OPERATION;
    for (let i = 0; i < count; i++) {
      const request = requestFor(op, i % 2 === 0);
      check(op, request, await send(op, request));
      sent++;
    }
  }
  const elapsed = Math.round(performance.now() - started);
  const summary = `${sent} requests, ${operations.length} operations, ${elapsed} ms`;
  console.log(`fuzz: ${summary}; statuses ${JSON.stringify(statuses)}`);
  expect(failures.slice(0, 25)).toEqual([]);
}, 120_000);
