// Organization B's full-permission key against organization A's resources: every namespace route and
// method answers 404 (never revealing existence), and nothing of A changes.
import { expect, test } from "vitest";
import { db } from "@/lib/db";
import { api } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";
import { rememberAll, storedCounts } from "../helpers/memory";

interface Fixture {
  nsId: string;
  grantId: string;
  aKeyId: string;
  bKeyId: string;
}

const matrix: { method: string; path: (f: Fixture) => string; body?: (f: Fixture) => unknown }[] = [
  { method: "GET", path: (f) => `/namespaces/${f.nsId}` },
  {
    method: "PATCH",
    path: (f) => `/namespaces/${f.nsId}`,
    body: () => ({ name: "hijacked", description: "b was here" }),
  },
  { method: "DELETE", path: (f) => `/namespaces/${f.nsId}` },
  { method: "GET", path: (f) => `/namespaces/${f.nsId}/grants` },
  { method: "POST", path: (f) => `/namespaces/${f.nsId}/grants`, body: (f) => ({ api_key_id: f.bKeyId }) },
  { method: "POST", path: (f) => `/namespaces/${f.nsId}/grants`, body: (f) => ({ api_key_id: f.aKeyId }) },
  { method: "DELETE", path: (f) => `/namespaces/${f.nsId}/grants/${f.grantId}` },
];

async function snapshot(orgId: string) {
  const prisma = await db();
  return {
    namespaces: await prisma.namespace.findMany({ where: { orgId }, orderBy: { id: "asc" } }),
    grants: await prisma.namespaceGrant.findMany({ where: { orgId }, orderBy: { id: "asc" } }),
    audit: await prisma.auditLog.count({ where: { orgId } }),
  };
}

test.each(
  matrix.map(
    (row) =>
      [`${row.method} ${row.path({ nsId: "{id}", grantId: "{grantId}", aKeyId: "", bKeyId: "" })}`, row] as const,
  ),
)("%s with another organization's key → 404, nothing changes", async (_label, row) => {
  const a = await createTenant("Org A");
  const b = await createTenant("Org B");
  const ns = await createNamespace(a.key, { name: "a-private", external_reference_id: "a-ref" });
  const aReader = await createKey(a.org.id, { namespaceIds: [ns.id] });
  const grants = await api("GET", `/namespaces/${ns.id}/grants`, { key: a.key });
  const fixture: Fixture = { nsId: ns.id, grantId: grants.body.data[0].id, aKeyId: aReader.id, bKeyId: b.keyId };
  const before = await snapshot(a.org.id);

  const response = await api(row.method, row.path(fixture), { key: b.key, body: row.body?.(fixture) });
  expect(response.status).toBe(404);
  expect(response.body).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
  expect(JSON.stringify(response.body)).not.toContain("a-private");

  expect(await snapshot(a.org.id)).toEqual(before);
  expect((await api("GET", "/namespaces", { key: b.key })).body.data).toEqual([]);
});

test("B's list never includes A's namespaces, and names do not collide across organizations", async () => {
  const a = await createTenant("Org A");
  const b = await createTenant("Org B");
  await createNamespace(a.key, { name: "same" });
  const bNs = await createNamespace(b.key, { name: "same" });
  const list = await api("GET", "/namespaces", { key: b.key });
  expect(list.body.data.map((n: { id: string }) => n.id)).toEqual([bNs.id]);
});

test("B cannot grant its namespace to A's key", async () => {
  const a = await createTenant("Org A");
  const b = await createTenant("Org B");
  const bNs = await createNamespace(b.key);
  const response = await api("POST", `/namespaces/${bNs.id}/grants`, { key: b.key, body: { api_key_id: a.keyId } });
  expect(response.status).toBe(404);
  expect((await api("GET", "/namespaces", { key: a.key })).body.data).toEqual([]);
});

const memoryMatrix: {
  label: string;
  method: string;
  path: (memoryId: string) => string;
  body?: Record<string, unknown>;
}[] = [
  {
    label: "POST /remember by namespace_id",
    method: "POST",
    path: () => "/remember",
    body: { namespace_id: "{ns}", content: "planted by B" },
  },
  {
    label: "POST /remember by external_reference_id",
    method: "POST",
    path: () => "/remember",
    body: { external_reference_id: "a-ref", content: "planted by B" },
  },
  {
    label: "POST /recall by namespace_id",
    method: "POST",
    path: () => "/recall",
    body: { namespace_id: "{ns}", query: "secret plans" },
  },
  {
    label: "POST /recall by external_reference_id",
    method: "POST",
    path: () => "/recall",
    body: { external_reference_id: "a-ref", query: "secret plans" },
  },
  {
    label: "POST /forget by namespace_id",
    method: "POST",
    path: () => "/forget",
    body: { namespace_id: "{ns}", all: true },
  },
  {
    label: "POST /forget by external_reference_id",
    method: "POST",
    path: () => "/forget",
    body: { external_reference_id: "a-ref", all: true },
  },
  {
    label: "POST /ask by namespace_id",
    method: "POST",
    path: () => "/ask",
    body: { namespace_id: "{ns}", query: "What are the secret plans?" },
  },
  {
    label: "POST /ask by external_reference_id",
    method: "POST",
    path: () => "/ask",
    body: { external_reference_id: "a-ref", query: "What are the secret plans?" },
  },
  { label: "GET /memories/{id}", method: "GET", path: (memoryId) => `/memories/${memoryId}` },
  {
    label: "PATCH /memories/{id}",
    method: "PATCH",
    path: (memoryId) => `/memories/${memoryId}`,
    body: { content: "defaced", scopes: {} },
  },
  { label: "GET /memories/{id}/history", method: "GET", path: (memoryId) => `/memories/${memoryId}/history` },
  {
    label: "POST /mcp/{namespace_id} (tools/call forget)",
    method: "POST",
    path: () => "/mcp/{ns}",
    body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "forget", arguments: { all: true } } },
  },
];

test.each(memoryMatrix.map((row) => [row.label, row] as const))(
  "%s with another organization's key → 404, nothing changes",
  async (_label, row) => {
    const a = await createTenant("Org A");
    const b = await createTenant("Org B");
    const ns = await createNamespace(a.key, { name: "a-memories", external_reference_id: "a-ref" });
    const [memory] = await rememberAll(a.key, ns.id, [{ content: "Org A's secret plans for the launch." }]);
    const before = { ...(await storedCounts(ns.id)), ...(await snapshot(a.org.id)) };
    const body = row.body && JSON.parse(JSON.stringify(row.body).replace("{ns}", ns.id));
    const response = await api(row.method, row.path(memory.id).replace("{ns}", ns.id), {
      key: b.key,
      body,
      headers: { accept: "application/json, text/event-stream" },
    });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("NOT_FOUND");
    expect(JSON.stringify(response.body)).not.toContain("secret plans");
    expect({ ...(await storedCounts(ns.id)), ...(await snapshot(a.org.id)) }).toEqual(before);
  },
);
