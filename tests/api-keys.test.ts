import { describe, expect, test } from "vitest";
import { displayKeySecret, generateKeySecret, hashKeySecret, revokeApiKey } from "@/lib/auth/api-keys";
import { db } from "@/lib/db";
import { api } from "./helpers/api";
import { createKey, createNamespace, createTenant } from "./helpers/fixtures";

describe("401 UNAUTHORIZED", () => {
  test.each([
    ["no Authorization header", {}],
    ["a malformed header", { headers: { authorization: "Token abc" } }],
    ["a Bearer with nothing after it", { headers: { authorization: "Bearer " } }],
    ["an unknown key", { key: "mgw_thisKeyWasNeverIssued1234567890abcdef" }],
    ["a key in the query string instead of the header", { path: "/namespaces?api_key=" }],
  ])("%s → 401 on every route", async (_label, options: { headers?: Record<string, string>; key?: string; path?: string }) => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const routes: [string, string, unknown?][] = [
      ["GET", options.path ? options.path + key : "/namespaces"],
      ["POST", "/namespaces", { name: "x" }],
      ["GET", `/namespaces/${ns.id}`],
      ["PATCH", `/namespaces/${ns.id}`, { name: "y" }],
      ["DELETE", `/namespaces/${ns.id}`],
      ["GET", `/namespaces/${ns.id}/grants`],
      ["POST", `/namespaces/${ns.id}/grants`, { api_key_id: "key_x" }],
      ["DELETE", `/namespaces/${ns.id}/grants/grt_x`],
    ];
    for (const [method, path, body] of routes) {
      const response = await api(method, path, { key: options.key, headers: options.headers, body });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body).toMatchObject({ success: false, error: { code: "UNAUTHORIZED" } });
    }
    expect((await api("GET", `/namespaces/${ns.id}`, { key })).body.data.name).toBe(ns.name);
  });

  test("authentication comes before validation: a bad body with no key is 401, not 400", async () => {
    const response = await api("POST", "/namespaces", { rawBody: "{nope" });
    expect(response.status).toBe(401);
  });

  test("a revoked key fails on the very next request", async () => {
    const { org, key } = await createTenant();
    const app = await createKey(org.id);
    expect((await api("GET", "/namespaces", { key: app.secret })).status).toBe(200);
    await revokeApiKey(app.id, { type: "system" });
    const response = await api("GET", "/namespaces", { key: app.secret });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe("UNAUTHORIZED");
    expect((await api("GET", "/namespaces", { key })).status).toBe(200);
  });

  test("an expired key → 401", async () => {
    const { org } = await createTenant();
    const app = await createKey(org.id);
    const prisma = await db();
    await prisma.apiKey.update({ where: { id: app.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await api("GET", "/namespaces", { key: app.secret })).status).toBe(401);
  });
});

describe("key storage", () => {
  test("secrets are mgw_ + base58 of 32 bytes, and only an HMAC of them is stored", async () => {
    const secret = generateKeySecret();
    expect(secret).toMatch(/^mgw_[1-9A-HJ-NP-Za-km-z]{43,44}$/);
    expect(generateKeySecret()).not.toBe(secret);
    const { org } = await createTenant();
    const app = await createKey(org.id);
    const prisma = await db();
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: app.id } });
    expect(row.secretHash).toBe(hashKeySecret(app.secret));
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.display).toBe(displayKeySecret(app.secret));
    expect(row.display).toBe(`mgw_…${app.secret.slice(-4)}`);
    expect(JSON.stringify(row)).not.toContain(app.secret);
  });

  test("last_used_at is set on use and written at most once a minute", async () => {
    const { org } = await createTenant();
    const app = await createKey(org.id);
    const prisma = await db();
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: app.id } })).lastUsedAt).toBeNull();
    await api("GET", "/namespaces", { key: app.secret });
    const first = (await prisma.apiKey.findUniqueOrThrow({ where: { id: app.id } })).lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await api("GET", "/namespaces", { key: app.secret });
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: app.id } })).lastUsedAt).toEqual(first);
    const longAgo = new Date(Date.now() - 61_000);
    await prisma.apiKey.update({ where: { id: app.id }, data: { lastUsedAt: longAgo } });
    await api("GET", "/namespaces", { key: app.secret });
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: app.id } })).lastUsedAt!.getTime()).toBeGreaterThan(longAgo.getTime());
  });

  test("a key's permissions cannot exceed its creating member's role", async () => {
    const { org } = await createTenant();
    const { createUser } = await import("@/lib/orgs/users");
    const { addMember } = await import("@/lib/orgs/members");
    const { createApiKey } = await import("@/lib/auth/api-keys");
    const user = await createUser({ email: `member-${Date.now()}@example.com` });
    await addMember({ orgId: org.id, userId: user.id, role: "member" }, { type: "system" });
    const make = (permissions: ("NAMESPACE_READ" | "NAMESPACE_MANAGE")[]) =>
      createApiKey({ orgId: org.id, name: "m", permissions, createdById: user.id }, { type: "user", id: user.id });
    await expect(make(["NAMESPACE_READ"])).resolves.toBeTruthy();
    await expect(make(["NAMESPACE_MANAGE"])).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  test("creating and revoking keys is in the audit log", async () => {
    const { org } = await createTenant();
    const app = await createKey(org.id);
    await revokeApiKey(app.id, { type: "system" });
    const prisma = await db();
    const actions = (await prisma.auditLog.findMany({ where: { orgId: org.id, targetId: app.id }, orderBy: { createdAt: "asc" } })).map((e) => e.action);
    expect(actions).toEqual(["api_key.create", "api_key.revoke"]);
  });
});
