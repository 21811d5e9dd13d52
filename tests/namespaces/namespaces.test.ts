import { describe, expect, test, vi } from "vitest";
import { db } from "@/lib/db";
import { api } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expectError(response: { status: number; body: any }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body.success).toBe(false);
  expect(response.body.error.code).toBe(code);
  expect(typeof response.body.error.message).toBe("string");
  expect(response.body.error.message.length).toBeGreaterThan(0);
}

describe("POST /namespaces", () => {
  test("creates a namespace with every spec field and grants it to the creating key", async () => {
    const { org, key } = await createTenant();
    const response = await api("POST", "/namespaces", {
      key,
      body: { name: "support-bot", description: "Tickets", external_reference_id: "crm-42" },
    });
    expect(response.status).toBe(201);
    expect(response.body.success).toBe(true);
    const ns = response.body.data;
    expect(ns).toMatchObject({
      org_id: org.id,
      name: "support-bot",
      description: "Tickets",
      external_reference_id: "crm-42",
    });
    expect(ns.id).toMatch(/^ns_/);
    expect(ns.created_at).toMatch(ISO_MS);
    expect(ns.updated_at).toMatch(ISO_MS);
    expect(ns.mcp_endpoint_url).toBe(`http://gateway.test/api/v1/mcp/${ns.id}`);
    expect(ns.mcp_endpoint_url.endsWith(ns.id)).toBe(true);

    const fetched = await api("GET", `/namespaces/${ns.id}`, { key });
    expect(fetched.status).toBe(200);
    expect(fetched.body.data).toEqual(ns);
  });

  test("optional fields come back as null when not given", async () => {
    const { key } = await createTenant();
    const response = await api("POST", "/namespaces", { key, body: { name: "plain" } });
    expect(response.status).toBe(201);
    expect(response.body.data.description).toBeNull();
    expect(response.body.data.external_reference_id).toBeNull();
  });

  test("a duplicate name in the same organization is 409 CONFLICT and creates nothing", async () => {
    const { key } = await createTenant();
    await createNamespace(key, { name: "dup" });
    expectError(await api("POST", "/namespaces", { key, body: { name: "dup" } }), 409, "CONFLICT");
    const list = await api("GET", "/namespaces", { key });
    expect(list.body.pagination.total).toBe(1);
  });

  test("a duplicate external_reference_id in the same organization is 409", async () => {
    const { key } = await createTenant();
    await createNamespace(key, { external_reference_id: "ext-1" });
    expectError(
      await api("POST", "/namespaces", { key, body: { name: "other", external_reference_id: "ext-1" } }),
      409,
      "CONFLICT",
    );
  });

  test("the same name in two organizations is allowed", async () => {
    const a = await createTenant("A");
    const b = await createTenant("B");
    await createNamespace(a.key, { name: "shared-name", external_reference_id: "same" });
    expect(
      (await api("POST", "/namespaces", { key: b.key, body: { name: "shared-name", external_reference_id: "same" } }))
        .status,
    ).toBe(201);
  });

  test("names of exactly 1 and 255 characters are accepted", async () => {
    const { key } = await createTenant();
    expect((await api("POST", "/namespaces", { key, body: { name: "x" } })).status).toBe(201);
    expect((await api("POST", "/namespaces", { key, body: { name: "y".repeat(255) } })).status).toBe(201);
  });

  test.each([
    ["missing name", {}, "body.name"],
    ["empty name", { name: "" }, "body.name"],
    ["name of 256 characters", { name: "n".repeat(256) }, "body.name"],
    ["white-space name", { name: "   " }, "body.name"],
    ["name not a string", { name: 42 }, "body.name"],
    ["description not a string", { name: "ok", description: 7 }, "body.description"],
    ["external_reference_id not a string", { name: "ok", external_reference_id: ["x"] }, "body.external_reference_id"],
    ["empty external_reference_id", { name: "ok", external_reference_id: "" }, "body.external_reference_id"],
    ["unknown field", { name: "ok", namespaceName: "typo" }, "body"],
  ])("%s → 400 BAD_REQUEST naming the field, nothing created", async (_label, body, field) => {
    const { key } = await createTenant();
    const response = await api("POST", "/namespaces", { key, body });
    expectError(response, 400, "BAD_REQUEST");
    expect(response.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await api("GET", "/namespaces", { key })).body.pagination.total).toBe(0);
  });

  test.each([
    ["malformed JSON", '{"name": ', "application/json", "Malformed JSON"],
    ["a JSON array", "[1,2]", "application/json", "JSON object"],
    ["an empty body", "", "application/json", "empty"],
    ["a non-JSON content type", "name=x", "application/x-www-form-urlencoded", "Content-Type"],
  ])("%s → 400 with a clear message", async (_label, rawBody, contentType, message) => {
    const { key } = await createTenant();
    const response = await api("POST", "/namespaces", { key, rawBody, headers: { "content-type": contentType } });
    expectError(response, 400, "BAD_REQUEST");
    expect(response.body.error.message).toContain(message);
  });

  test("a body over the size limit → 413 PAYLOAD_TOO_LARGE", async () => {
    const { key } = await createTenant();
    const response = await api("POST", "/namespaces", {
      key,
      body: { name: "big", description: "x".repeat(6 * 1024 * 1024) },
    });
    expectError(response, 413, "PAYLOAD_TOO_LARGE");
  });

  test("writes an audit entry for the namespace and its implicit grant", async () => {
    const { org, key, keyId } = await createTenant();
    const ns = await createNamespace(key);
    const prisma = await db();
    const entries = await prisma.auditLog.findMany({
      where: { orgId: org.id, targetType: { in: ["namespace", "namespace_grant"] } },
    });
    expect(entries.map((e) => e.action).sort()).toEqual(["grant.create", "namespace.create"]);
    expect(entries.every((e) => e.actorType === "api_key" && e.actorId === keyId)).toBe(true);
    expect(entries.find((e) => e.action === "namespace.create")!.targetId).toBe(ns.id);
  });
});

describe("GET /namespaces", () => {
  test("paginates with page and page_size and reports pageSize, total and totalPages", async () => {
    const { key } = await createTenant();
    const names = [];
    for (let i = 0; i < 5; i++) names.push((await createNamespace(key, { name: `n${i}` })).name);
    const first = await api("GET", "/namespaces?page=1&page_size=2", { key });
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ page: 1, pageSize: 2, total: 5, totalPages: 3 });
    expect(first.body.data.map((n: { name: string }) => n.name)).toEqual(["n0", "n1"]);
    const last = await api("GET", "/namespaces?page=3&page_size=2", { key });
    expect(last.body.data.map((n: { name: string }) => n.name)).toEqual(["n4"]);
    const beyond = await api("GET", "/namespaces?page=4&page_size=2", { key });
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination).toEqual({ page: 4, pageSize: 2, total: 5, totalPages: 3 });
  });

  test("defaults to page 1 and page_size 20; an empty list has totalPages 0", async () => {
    const { key } = await createTenant();
    const response = await api("GET", "/namespaces", { key });
    expect(response.body).toEqual({
      success: true,
      data: [],
      pagination: { page: 1, pageSize: 20, total: 0, totalPages: 0 },
    });
  });

  test("page_size 100 is accepted", async () => {
    const { key } = await createTenant();
    expect((await api("GET", "/namespaces?page_size=100", { key })).status).toBe(200);
  });

  test.each([
    "page=0",
    "page=-1",
    "page=abc",
    "page=1.5",
    "page_size=0",
    "page_size=101",
    "page_size=x",
    "pagesize=10",
  ])("out-of-bounds or unknown pagination %s → 400", async (query) => {
    const { key } = await createTenant();
    const response = await api("GET", `/namespaces?${query}`, { key });
    expectError(response, 400, "BAD_REQUEST");
    expect(response.body.error.details[0].field).toMatch(/^query/);
  });
});

describe("GET/PATCH/DELETE /namespaces/{id}", () => {
  test("PATCH changes the given fields, clears with null, and moves updated_at", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key, { name: "before", description: "d", external_reference_id: "r" });
    // A minute later by the clock (only Date is faked: timers and I/O run as usual).
    const later = new Date(Date.now() + 60_000);
    vi.useFakeTimers({ toFake: ["Date"], now: later });
    const response = await api("PATCH", `/namespaces/${ns.id}`, {
      key,
      body: { name: "after", description: null },
    }).finally(() => vi.useRealTimers());
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: ns.id,
      name: "after",
      description: null,
      external_reference_id: "r",
    });
    expect(response.body.data.updated_at).toBe(later.toISOString());
    expect(response.body.data.created_at < later.toISOString()).toBe(true);
    expect((await api("GET", `/namespaces/${ns.id}`, { key })).body.data.name).toBe("after");
  });

  test("PATCH to a name another namespace has → 409; to its own name → 200", async () => {
    const { key } = await createTenant();
    await createNamespace(key, { name: "taken" });
    const ns = await createNamespace(key, { name: "mine" });
    expectError(await api("PATCH", `/namespaces/${ns.id}`, { key, body: { name: "taken" } }), 409, "CONFLICT");
    expect((await api("PATCH", `/namespaces/${ns.id}`, { key, body: { name: "mine" } })).status).toBe(200);
  });

  test.each([
    ["an empty body", {}],
    ["an empty name", { name: "" }],
    ["an unknown field", { title: "x" }],
  ])("PATCH with %s → 400 and nothing changes", async (_label, body) => {
    const { key } = await createTenant();
    const ns = await createNamespace(key, { name: "stay" });
    expectError(await api("PATCH", `/namespaces/${ns.id}`, { key, body }), 400, "BAD_REQUEST");
    expect((await api("GET", `/namespaces/${ns.id}`, { key })).body.data.name).toBe("stay");
  });

  test("DELETE removes the namespace and its grants; then it is 404", async () => {
    const { org, key } = await createTenant();
    const ns = await createNamespace(key);
    const other = await createKey(org.id, { namespaceIds: [ns.id] });
    const response = await api("DELETE", `/namespaces/${ns.id}`, { key });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ id: ns.id, deleted: true });
    expectError(await api("GET", `/namespaces/${ns.id}`, { key }), 404, "NOT_FOUND");
    expectError(await api("DELETE", `/namespaces/${ns.id}`, { key }), 404, "NOT_FOUND");
    const prisma = await db();
    expect(await prisma.namespaceGrant.count({ where: { namespaceId: ns.id } })).toBe(0);
    expect((await api("GET", "/namespaces", { key: other.secret })).body.data).toEqual([]);
  });

  test("an unknown id → 404 NOT_FOUND", async () => {
    const { key } = await createTenant();
    for (const method of ["GET", "DELETE"])
      expectError(await api(method, "/namespaces/ns_doesnotexist", { key }), 404, "NOT_FOUND");
    expectError(await api("PATCH", "/namespaces/ns_doesnotexist", { key, body: { name: "x" } }), 404, "NOT_FOUND");
  });
});

describe("permissions", () => {
  test.each([
    ["GET", "/namespaces", undefined, "NAMESPACE_READ"],
    ["POST", "/namespaces", { name: "x" }, "NAMESPACE_MANAGE"],
    ["GET", "/namespaces/{id}", undefined, "NAMESPACE_READ"],
    ["PATCH", "/namespaces/{id}", { name: "renamed" }, "NAMESPACE_MANAGE"],
    ["DELETE", "/namespaces/{id}", undefined, "NAMESPACE_MANAGE"],
    ["GET", "/namespaces/{id}/grants", undefined, "NAMESPACE_MANAGE"],
    ["POST", "/namespaces/{id}/grants", { api_key_id: "{keyId}" }, "NAMESPACE_MANAGE"],
    ["DELETE", "/namespaces/{id}/grants/{grantId}", undefined, "NAMESPACE_MANAGE"],
  ])("%s %s without %s → 403 FORBIDDEN, nothing changes", async (method, path, body, permission) => {
    const { org, key } = await createTenant();
    const ns = await createNamespace(key, { name: "guarded" });
    const grants = await api("GET", `/namespaces/${ns.id}/grants`, { key });
    const all = ["NAMESPACE_READ", "NAMESPACE_WRITE", "NAMESPACE_MANAGE", "INTEGRATION_MANAGE"] as const;
    const weak = await createKey(org.id, { permissions: all.filter((p) => p !== permission), namespaceIds: [ns.id] });
    const target = await createKey(org.id, { permissions: ["NAMESPACE_READ"] });
    const url = path.replace("{id}", ns.id).replace("{grantId}", grants.body.data[0].id);
    const payload = body && JSON.parse(JSON.stringify(body).replace("{keyId}", target.id));
    const response = await api(method, url, { key: weak.secret, body: payload });
    expectError(response, 403, "FORBIDDEN");
    expect(response.body.error.message).toContain(permission);
    const after = await api("GET", `/namespaces/${ns.id}`, { key });
    expect(after.body.data.name).toBe("guarded");
    expect((await api("GET", `/namespaces/${ns.id}/grants`, { key })).body.data).toHaveLength(2);
  });
});

describe("grants", () => {
  test("an ungranted key sees nothing; granted, it sees the namespace; revoked grant, nothing again", async () => {
    const { org, key } = await createTenant();
    const ns = await createNamespace(key);
    const reader = await createKey(org.id, { permissions: ["NAMESPACE_READ"] });
    expect((await api("GET", "/namespaces", { key: reader.secret })).body.data).toEqual([]);
    expectError(await api("GET", `/namespaces/${ns.id}`, { key: reader.secret }), 404, "NOT_FOUND");

    const grant = await api("POST", `/namespaces/${ns.id}/grants`, { key, body: { api_key_id: reader.id } });
    expect(grant.status).toBe(201);
    expect(grant.body.data).toMatchObject({ namespace_id: ns.id, api_key_id: reader.id, user_id: null });
    expect(grant.body.data.created_at).toMatch(ISO_MS);
    expect(
      (await api("GET", "/namespaces", { key: reader.secret })).body.data.map((n: { id: string }) => n.id),
    ).toEqual([ns.id]);
    expect((await api("GET", `/namespaces/${ns.id}`, { key: reader.secret })).status).toBe(200);

    const listed = await api("GET", `/namespaces/${ns.id}/grants`, { key });
    expect(listed.body.data.map((g: { api_key_id: string }) => g.api_key_id)).toContain(reader.id);

    const removed = await api("DELETE", `/namespaces/${ns.id}/grants/${grant.body.data.id}`, { key });
    expect(removed.body.data).toEqual({ id: grant.body.data.id, deleted: true });
    expectError(await api("GET", `/namespaces/${ns.id}`, { key: reader.secret }), 404, "NOT_FOUND");
    expectError(await api("DELETE", `/namespaces/${ns.id}/grants/${grant.body.data.id}`, { key }), 404, "NOT_FOUND");
  });

  test("a duplicate grant → 409", async () => {
    const { org, key } = await createTenant();
    const ns = await createNamespace(key);
    const reader = await createKey(org.id);
    expect((await api("POST", `/namespaces/${ns.id}/grants`, { key, body: { api_key_id: reader.id } })).status).toBe(
      201,
    );
    expectError(
      await api("POST", `/namespaces/${ns.id}/grants`, { key, body: { api_key_id: reader.id } }),
      409,
      "CONFLICT",
    );
  });

  test("grants to a user need a member of the organization", async () => {
    const { org, key } = await createTenant();
    const ns = await createNamespace(key);
    const { createUser } = await import("@/lib/orgs/users");
    const { addMember } = await import("@/lib/orgs/members");
    const member = await createUser({ email: `m${Date.now()}@example.com` });
    const outsider = await createUser({ email: `o${Date.now()}@example.com` });
    await addMember({ orgId: org.id, userId: member.id, role: "member" }, { type: "system" });
    const ok = await api("POST", `/namespaces/${ns.id}/grants`, { key, body: { user_id: member.id } });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ user_id: member.id, api_key_id: null });
    expectError(
      await api("POST", `/namespaces/${ns.id}/grants`, { key, body: { user_id: outsider.id } }),
      404,
      "NOT_FOUND",
    );
  });

  test.each([
    ["neither grantee", {}],
    ["both grantees", { api_key_id: "key_a", user_id: "usr_b" }],
    ["a wrongly typed id", { api_key_id: 5 }],
  ])("a grant body with %s → 400", async (_label, body) => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    expectError(await api("POST", `/namespaces/${ns.id}/grants`, { key, body }), 400, "BAD_REQUEST");
  });

  test("granting an unknown or revoked key → 404 / 400", async () => {
    const { org, key } = await createTenant();
    const ns = await createNamespace(key);
    expectError(
      await api("POST", `/namespaces/${ns.id}/grants`, { key, body: { api_key_id: "key_nope" } }),
      404,
      "NOT_FOUND",
    );
    const { revokeApiKey } = await import("@/lib/auth/api-keys/revoke-api-key");
    const old = await createKey(org.id);
    await revokeApiKey(old.id, { type: "system" });
    expectError(
      await api("POST", `/namespaces/${ns.id}/grants`, { key, body: { api_key_id: old.id } }),
      400,
      "BAD_REQUEST",
    );
  });
});

test("an unknown API path is a 404 in the envelope", async () => {
  const { key } = await createTenant();
  expectError(await api("GET", "/nope", { key }), 404, "NOT_FOUND");
});
