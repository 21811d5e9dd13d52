// The OpenAPI document says everything a generated client needs: every path (health and MCP included),
// every status a route can answer, and the rules the schemas enforce beyond plain types.
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { expect, test } from "vitest";
import { api } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";
import { component } from "../helpers/openapi";

async function document() {
  const response = await api("GET", "/openapi.json");
  expect(response.status).toBe(200);
  return response.body;
}

function requestValidator(doc: any, path: string, method = "post") {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  ajv.addSchema(doc, "openapi");
  const ref = `openapi#/paths/${path.replace(/\//g, "~1")}/${method}/requestBody/content/application~1json/schema`;
  return ajv.compile({ $ref: ref });
}

test("lists /health, /openapi.json and the MCP endpoint beside the API's operations", async () => {
  const doc = await document();
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/health", "/openapi.json", "/mcp/{namespace_id}"]));
  expect(doc.paths["/health"].get.security).toBeUndefined();
  expect(Object.keys(doc.paths["/health"].get.responses)).toEqual(["200", "500", "503"]);
  const mcp = doc.paths["/mcp/{namespace_id}"].post;
  expect(mcp.security).toEqual([{ apiKey: [] }]);
  const parameters = mcp.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
  expect(parameters).toEqual(["path:namespace_id", "header:Accept", "header:X-Identity-Id"]);
  const statuses = ["200", "202", "400", "401", "404", "406", "413", "415", "429"];
  expect(Object.keys(mcp.responses)).toEqual(expect.arrayContaining(statuses));
});

test("every other method of every path is documented as 405 with Allow, and the routes answer so", async () => {
  const doc = await document();
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    expect(Object.keys(item).sort(), path).toEqual(["delete", "get", "patch", "post", "put"]);
  }
  expect(doc.paths["/recall"].get.responses["405"].headers.Allow).toBeDefined();
  const refused = [
    ["GET", "/recall"],
    ["PUT", "/namespaces"],
    ["DELETE", "/health"],
    ["GET", "/mcp/ns_1"],
  ];
  refused.push(["PATCH", "/mcp/ns_1"]);
  for (const [method, path] of refused) {
    const response = await api(method, path);
    expect({ method, path, status: response.status }).toEqual({ method, path, status: 405 });
    expect(response.body.error.code).toBe("METHOD_NOT_ALLOWED");
  }
});

test("413 where bodies exist, 429 with Retry-After on key-authenticated routes, 502/503 where models run", async () => {
  const doc = await document();
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      if (operation.requestBody) expect(operation.responses, `${method} ${path}`).toHaveProperty("413");
      if (operation.security) {
        expect(operation.responses["429"]?.headers?.["Retry-After"], `${method} ${path}`).toBeDefined();
      }
    }
  }
  for (const path of ["/remember", "/recall", "/ask"]) {
    expect(Object.keys(doc.paths[path].post.responses)).toEqual(expect.arrayContaining(["502", "503"]));
  }
});

test("exactly one of namespace_id and external_reference_id is a oneOf: refused by document and API", async () => {
  const doc = await document();
  for (const path of ["/remember", "/recall", "/ask", "/forget"]) {
    const schema = component(doc, doc.paths[path].post.requestBody.content["application/json"].schema);
    const rules = [schema, ...(schema.allOf ?? [])];
    // forget may name all_namespaces instead of a target (an identity's memories in every namespace).
    const instead = path === "/forget" ? [{ required: ["all_namespaces"] }] : [];
    const target = JSON.stringify([
      { required: ["namespace_id"] },
      { required: ["external_reference_id"] },
      ...instead,
    ]);
    expect(
      rules.some((rule: any) => JSON.stringify(rule.oneOf) === target),
      path,
    ).toBe(true);
  }
  const recall = requestValidator(doc, "/recall");
  expect(recall({ namespace_id: "ns_1", query: "tea" })).toBe(true);
  expect(recall({ external_reference_id: "crm-1", query: "tea" })).toBe(true);
  expect(recall({ namespace_id: "ns_1", external_reference_id: "crm-1", query: "tea" })).toBe(false);
  expect(recall({ query: "tea" })).toBe(false);
  expect(recall({ namespace_id: "ns_1", query: "   " })).toBe(false);
  expect(recall({ namespace_id: "ns_1", query: "a\u0000b" })).toBe(false);
  const remember = requestValidator(doc, "/remember");
  expect(remember({ namespace_id: "ns_1", content: "x", memories: [{ content: "y" }] })).toBe(false);
  expect(remember({ namespace_id: "ns_1", content: "x", metadata: { "k\u0000": 1 } })).toBe(false);
  const forget = requestValidator(doc, "/forget");
  expect(forget({ namespace_id: "ns_1", all: true })).toBe(true);
  expect(forget({ namespace_id: "ns_1", all: true, identity_id: "u1" })).toBe(false);
  expect(forget({ namespace_id: "ns_1" })).toBe(false);
  expect(forget({ namespace_id: "ns_1", scopes: {} })).toBe(false);
  expect(forget({ identity_id: "u1", all_namespaces: true })).toBe(true);
  expect(forget({ identity_id: "u1", all_namespaces: true, metadata: { topic: "x" } })).toBe(true);
  expect(forget({ all_namespaces: true })).toBe(false);
  expect(forget({ namespace_id: "ns_1", identity_id: "u1", all_namespaces: true })).toBe(false);
  expect(forget({ identity_id: "u1", all_namespaces: true, all: true })).toBe(false);
  expect(forget({ identity_id: "u1", all_namespaces: true, memory_ids: ["m"] })).toBe(false);
  expect(forget({ identity_id: "u1" })).toBe(false);
  const createNamespaceBody = requestValidator(doc, "/namespaces");
  expect(createNamespaceBody({ name: "  Café  " })).toBe(true);
  expect(createNamespaceBody({ name: "a\u200bb" })).toBe(false);
  expect(createNamespaceBody({ name: " " })).toBe(false);
  expect(requestValidator(doc, "/namespaces/{id}/grants")({ api_key_id: "k", user_id: "u" })).toBe(false);
});

test("requests the document accepts, the API accepts too; those it refuses get 400", async () => {
  const doc = await document();
  const { key } = await createTenant();
  const ns = await createNamespace(key, { external_reference_id: "crm-7" });
  const recall = requestValidator(doc, "/recall");
  const forget = requestValidator(doc, "/forget");
  const cases: [string, (body: unknown) => boolean | Promise<unknown>, Record<string, unknown>][] = [
    ["/recall", recall, { external_reference_id: "crm-7", query: "anything" }],
    ["/recall", recall, { namespace_id: ns.id, query: "anything", top_k: 100, min_score: 0 }],
    ["/recall", recall, { namespace_id: ns.id, external_reference_id: "crm-7", query: "anything" }],
    ["/recall", recall, { query: "anything" }],
    ["/forget", forget, { namespace_id: ns.id, metadata: { topic: "x" } }],
    ["/forget", forget, { namespace_id: ns.id, metadata: {} }],
    ["/forget", forget, { namespace_id: ns.id, all: true, memory_ids: ["m"] }],
    ["/forget", forget, { identity_id: "u1", all_namespaces: true }],
    ["/forget", forget, { identity_id: "u1", all_namespaces: true, namespace_id: ns.id }],
    ["/forget", forget, { all_namespaces: true, scopes: { team: "a" } }],
  ];
  for (const [path, validate, body] of cases) {
    const valid = validate(body) === true;
    const response = await api("POST", path, { key, body });
    expect({ path, body, status: response.status }).toEqual({ path, body, status: valid ? 200 : 400 });
  }
}, 180_000);

test("idempotent writes document Idempotency-Key, 409 IDEMPOTENCY_CONFLICT and Idempotent-Replayed", async () => {
  const doc = await document();
  const idempotent = [
    ["/remember", "post"],
    ["/forget", "post"],
    ["/namespaces", "post"],
    ["/memories/{id}", "patch"],
  ];
  for (const [path, method] of idempotent) {
    const operation = doc.paths[path][method];
    const header = operation.parameters.find((p: { in: string; name: string }) => p.in === "header");
    expect(header, `${method} ${path}`).toMatchObject({
      name: "Idempotency-Key",
      required: false,
      schema: { type: "string", minLength: 1, maxLength: 255 },
    });
    expect(new RegExp(header.schema.pattern).test("order-42 retry ~")).toBe(true);
    expect(new RegExp(header.schema.pattern).test("clé")).toBe(false);
    expect(operation.responses["409"].description).toContain("IDEMPOTENCY_CONFLICT");
    const success = operation.responses[method === "post" && path !== "/forget" ? "201" : "200"];
    expect(success.headers["Idempotent-Replayed"], `${method} ${path}`).toBeDefined();
  }
  for (const [path, method] of [
    ["/recall", "post"],
    ["/ask", "post"],
    ["/namespaces/{id}", "patch"],
  ]) {
    const headers = doc.paths[path][method].parameters.filter((p: { in: string }) => p.in === "header");
    expect(headers, `${method} ${path}`).toEqual([]);
  }
});

test("shared schemas are named components, referenced wherever they are used", async () => {
  const doc = await document();
  const names = Object.keys(doc.components.schemas);
  expect(names).toEqual(
    expect.arrayContaining([
      ...["Error", "Pagination", "CursorPagination", "Memory", "Match", "AskResult", "Namespace", "Grant"],
      ...["SessionId", "IdentityId", "Metadata", "Scopes", "RememberBody", "RecallBody", "AskBody", "ForgetBody"],
    ]),
  );
  const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]);
  // Every component is used, and every reference names a component.
  for (const name of names) expect(refs, name).toContain(name);
  for (const ref of new Set(refs)) expect(names, ref).toContain(ref);
  expect(JSON.stringify(doc)).not.toContain("$defs");
  const json = (content: any) => content["application/json"].schema;
  expect(json(doc.paths["/remember"].post.requestBody.content)).toEqual({ $ref: "#/components/schemas/RememberBody" });
  expect(json(doc.paths["/memories/{id}"].get.responses["200"].content).properties.data).toEqual({
    $ref: "#/components/schemas/Memory",
  });
  expect(json(doc.paths["/namespaces"].get.responses["200"].content).properties).toMatchObject({
    data: { type: "array", items: { $ref: "#/components/schemas/Namespace" } },
    pagination: { $ref: "#/components/schemas/Pagination" },
  });
  expect(json(doc.paths["/recall"].post.responses["404"].content)).toEqual({ $ref: "#/components/schemas/Error" });
  // A shared field's rules are written once: session_id is a reference wherever a request names a session.
  expect(refs.filter((ref) => ref === "SessionId").length).toBeGreaterThan(1);
  expect(doc.components.schemas.SessionId).toMatchObject({ type: "string", minLength: 1, maxLength: 255 });
});
