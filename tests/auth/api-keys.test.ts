import { describe, expect, test } from "vitest";
import { displayKeySecret, generateKeySecret, hashKeySecret } from "@/lib/auth/api-keys/key-secrets";
import { revokeApiKey } from "@/lib/auth/api-keys/revoke-api-key";
import { db } from "@/lib/db";
import { api, routeRequest } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";

/** An MCP `initialize` to a namespace's endpoint: its status says whether the key reaches the namespace. */
function mcpInitialize(namespaceId: string, key: string) {
  const params = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } };
  const headers = {
    authorization: `Bearer ${key}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params });
  return routeRequest(new Request(`http://gateway.test/api/v1/mcp/${namespaceId}`, { method: "POST", headers, body }));
}

describe("401 UNAUTHORIZED", () => {
  test.each([
    ["no Authorization header", {}],
    ["a malformed header", { headers: { authorization: "Token abc" } }],
    ["a Bearer with nothing after it", { headers: { authorization: "Bearer " } }],
    ["an unknown key", { key: "mgw_thisKeyWasNeverIssued1234567890abcdef" }],
    ["a key in the query string instead of the header", { path: "/namespaces?api_key=" }],
  ])(
    "%s → 401 on every route",
    async (_label, options: { headers?: Record<string, string>; key?: string; path?: string }) => {
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
    },
  );

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
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: app.id } })).lastUsedAt!.getTime()).toBeGreaterThan(
      longAgo.getTime(),
    );
  });

  test("a key's permissions cannot exceed its creating member's role", async () => {
    const { org } = await createTenant();
    const { createUser } = await import("@/lib/orgs/users");
    const { addMember } = await import("@/lib/orgs/members");
    const { createApiKey } = await import("@/lib/auth/api-keys/create-api-key");
    const user = await createUser({ email: `member-${Date.now()}@example.com` });
    await addMember({ orgId: org.id, userId: user.id, role: "member" }, { type: "system" });
    const make = (permissions: ("NAMESPACE_READ" | "NAMESPACE_MANAGE")[]) =>
      createApiKey({ orgId: org.id, name: "m", permissions, createdById: user.id }, { type: "user", id: user.id });
    await expect(make(["NAMESPACE_READ"])).resolves.toBeTruthy();
    await expect(make(["NAMESPACE_MANAGE"])).rejects.toMatchObject({ name: "ForbiddenError" });
  });

  test("creating and revoking keys is in the audit log", async () => {
    const { org } = await createTenant();
    const app = await createKey(org.id);
    await revokeApiKey(app.id, { type: "system" });
    const prisma = await db();
    const actions = (
      await prisma.auditLog.findMany({ where: { orgId: org.id, targetId: app.id }, orderBy: { createdAt: "asc" } })
    ).map((e) => e.action);
    expect(actions).toEqual(["api_key.create", "api_key.revoke"]);
  });
});

describe("a key never exceeds its creator's current role", () => {
  const SYSTEM = { type: "system" } as const;
  const uniqueEmail = (who: string) => `${who}-${Math.random().toString(36).slice(2, 8)}@example.com`;

  async function teamWithAdminKey() {
    const { org, key: operatorKey } = await createTenant();
    const { inviteMember } = await import("@/lib/orgs/members");
    const { createApiKey } = await import("@/lib/auth/api-keys/create-api-key");
    const owner = await inviteMember({ orgId: org.id, email: uniqueEmail("owner"), role: "owner" }, { type: "system" });
    const admin = await inviteMember({ orgId: org.id, email: uniqueEmail("admin"), role: "admin" }, { type: "system" });
    const ns = await createNamespace(operatorKey);
    const { key, secret } = await createApiKey(
      {
        orgId: org.id,
        name: "admin's app",
        permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE", "NAMESPACE_MANAGE"],
        namespaceIds: [ns.id],
        createdById: admin.id,
      },
      { type: "user", id: admin.id },
    );
    const byOwner = { type: "user" as const, id: owner.id };
    return { org, operatorKey, owner, admin, ns, keyId: key.id, secret, byOwner };
  }

  async function auditOf(orgId: string, targetId: string) {
    const prisma = await db();
    const rows = await prisma.auditLog.findMany({ where: { orgId, targetId }, orderBy: { createdAt: "asc" } });
    return rows.map((row) => ({ action: row.action, actorId: row.actorId, details: row.details }));
  }

  test("a demoted admin's MANAGE key gets 403 saying why on manage routes, keeps what members may do", async () => {
    const { org, operatorKey, admin, ns, secret, byOwner } = await teamWithAdminKey();
    const { changeMemberRole } = await import("@/lib/orgs/members");
    // As a member, the admin's key keeps only the namespaces granted to the admin too (see the next tests).
    const grant = { key: operatorKey, body: { user_id: admin.id } };
    expect((await api("POST", `/namespaces/${ns.id}/grants`, grant)).status).toBe(201);
    expect((await api("POST", "/namespaces", { key: secret, body: { name: "before-demotion" } })).status).toBe(201);

    await changeMemberRole({ orgId: org.id, userId: admin.id, role: "member", byRole: "owner" }, byOwner);
    const refused = await api("POST", "/namespaces", { key: secret, body: { name: "after-demotion" } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("FORBIDDEN");
    expect(refused.body.error.message).toContain("now member");
    expect((await api("DELETE", `/namespaces/${ns.id}`, { key: secret })).status).toBe(403);
    const prisma = await db();
    expect(await prisma.namespace.count({ where: { orgId: org.id, name: "after-demotion" } })).toBe(0);
    expect(await prisma.namespace.count({ where: { id: ns.id } })).toBe(1);
    const body = { namespace_id: ns.id, content: "Members may still write." };
    expect((await api("POST", "/remember", { key: secret, body })).status).toBe(201);

    // Bounded, not stripped: promoting them back restores what the key was given.
    await changeMemberRole({ orgId: org.id, userId: admin.id, role: "admin", byRole: "owner" }, byOwner);
    expect((await api("POST", "/namespaces", { key: secret, body: { name: "after-promotion" } })).status).toBe(201);
  });

  test("a demoted creator's key loses namespaces not granted to them (404), regains them on promotion", async () => {
    const { org, operatorKey, admin, ns, secret, byOwner } = await teamWithAdminKey();
    const { changeMemberRole } = await import("@/lib/orgs/members");
    const tea = { namespace_id: ns.id, content: "Tea is green." };
    const memoryId = (await api("POST", "/remember", { key: operatorKey, body: tea })).body.data.id;
    const more = { namespace_id: ns.id, content: "More tea." };
    const reach = async () => ({
      namespace: (await api("GET", `/namespaces/${ns.id}`, { key: secret })).status,
      listed: (await api("GET", "/namespaces", { key: secret })).body.data.map((n: { id: string }) => n.id),
      memory: (await api("GET", `/memories/${memoryId}`, { key: secret })).status,
      recall: (await api("POST", "/recall", { key: secret, body: { namespace_id: ns.id, query: "tea" } })).status,
      remember: (await api("POST", "/remember", { key: secret, body: more })).status,
      mcp: (await mcpInitialize(ns.id, secret)).status,
    });
    const reachable = { namespace: 200, listed: [ns.id], memory: 200, recall: 200, remember: 201, mcp: 200 };
    expect(await reach()).toEqual(reachable);

    await changeMemberRole({ orgId: org.id, userId: admin.id, role: "member", byRole: "owner" }, byOwner);
    expect(await reach()).toEqual({ namespace: 404, listed: [], memory: 404, recall: 404, remember: 404, mcp: 404 });
    const prisma = await db();
    expect(await prisma.memory.count({ where: { namespaceId: ns.id } })).toBe(2);

    await changeMemberRole({ orgId: org.id, userId: admin.id, role: "admin", byRole: "owner" }, byOwner);
    expect(await reach()).toEqual(reachable);
  });

  test("a member's key loses a namespace when the member's own grant to it is removed", async () => {
    const { org, key: operatorKey } = await createTenant();
    const { inviteMember } = await import("@/lib/orgs/members");
    const { createApiKey } = await import("@/lib/auth/api-keys/create-api-key");
    const member = await inviteMember({ orgId: org.id, email: uniqueEmail("member"), role: "member" }, SYSTEM);
    const [granted, other] = [await createNamespace(operatorKey), await createNamespace(operatorKey)];
    const userGrants = [];
    for (const ns of [granted, other]) {
      const grant = { key: operatorKey, body: { user_id: member.id } };
      userGrants.push((await api("POST", `/namespaces/${ns.id}/grants`, grant)).body.data.id as string);
    }
    const { secret } = await createApiKey(
      {
        orgId: org.id,
        name: "member's app",
        permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"],
        namespaceIds: [granted.id, other.id],
        createdById: member.id,
      },
      { type: "user", id: member.id },
    );
    const status = async (id: string) => (await api("GET", `/namespaces/${id}`, { key: secret })).status;
    expect([await status(granted.id), await status(other.id)]).toEqual([200, 200]);

    const ungrant = await api("DELETE", `/namespaces/${other.id}/grants/${userGrants[1]}`, { key: operatorKey });
    expect(ungrant.status).toBe(200);
    expect([await status(granted.id), await status(other.id)]).toEqual([200, 404]);
    const write = await api("POST", "/remember", { key: secret, body: { namespace_id: other.id, content: "No." } });
    expect(write.status).toBe(404);
    const listed = (await api("GET", "/namespaces", { key: secret })).body.data.map((n: { id: string }) => n.id);
    expect(listed).toEqual([granted.id]);
  });

  test("removing a member revokes their keys on the spot, audited with the removal", async () => {
    const { org, admin, ns, keyId, secret, byOwner } = await teamWithAdminKey();
    const { removeMember } = await import("@/lib/orgs/members");
    const settled = await removeMember({ orgId: org.id, userId: admin.id, byRole: "owner" }, byOwner);
    expect(settled).toEqual({ revoked: [keyId], transferred: [] });
    const body = { namespace_id: ns.id, content: "Written after removal." };
    const write = await api("POST", "/remember", { key: secret, body });
    expect(write.status).toBe(401);
    const prisma = await db();
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } })).revokedAt).not.toBeNull();
    expect(await prisma.memory.count({ where: { namespaceId: ns.id } })).toBe(0);
    expect(await auditOf(org.id, keyId)).toEqual([
      { action: "api_key.create", actorId: admin.id, details: expect.anything() },
      {
        action: "api_key.revoke",
        actorId: byOwner.id,
        details: { name: "admin's app", reason: "creator removed from the organization", creator_user_id: admin.id },
      },
    ]);
  });

  test("the person removing a member can take their keys over: they keep working, bounded by their role", async () => {
    const { org, owner, admin, ns, keyId, secret, byOwner } = await teamWithAdminKey();
    const { inviteMember, removeMember } = await import("@/lib/orgs/members");
    const removal = { orgId: org.id, userId: admin.id, byRole: "owner" as const, transferKeysTo: owner.id };
    const settled = await removeMember(removal, byOwner);
    expect(settled).toEqual({ revoked: [], transferred: [keyId] });
    const body = { namespace_id: ns.id, content: "Still working." };
    expect((await api("POST", "/remember", { key: secret, body })).status).toBe(201);
    expect((await api("POST", "/namespaces", { key: secret, body: { name: "taken-over" } })).status).toBe(201);
    const prisma = await db();
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } })).createdById).toBe(owner.id);
    expect((await auditOf(org.id, keyId)).at(-1)).toEqual({
      action: "api_key.transfer",
      actorId: owner.id,
      details: { name: "admin's app", from_user_id: admin.id, to_user_id: owner.id },
    });

    // Handing keys to someone who is not a member is refused, and nothing changes.
    const other = await inviteMember({ orgId: org.id, email: uniqueEmail("other"), role: "member" }, SYSTEM);
    const toStranger = removeMember({ orgId: org.id, userId: other.id, transferKeysTo: admin.id }, byOwner);
    await expect(toStranger).rejects.toMatchObject({ name: "InvalidError" });
    expect(await prisma.membership.count({ where: { orgId: org.id, userId: other.id } })).toBe(1);
  });

  test("a key whose creator is no longer a member is refused like a revoked key (401)", async () => {
    const { org, admin, secret } = await teamWithAdminKey();
    const prisma = await db();
    // A membership gone without its keys being settled (removed before keys were tied to their creator).
    await prisma.membership.deleteMany({ where: { orgId: org.id, userId: admin.id } });
    const response = await api("GET", "/namespaces", { key: secret });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe("UNAUTHORIZED");
  });
});

// One key-creation policy (createApiKey), whoever asks: the console, the CLI, the start-up bootstrap.
describe("a namespace the key cannot reach", () => {
  test("is a 404 saying how grants are made, alike if not granted, unknown, or of another organization", async () => {
    const { org, key } = await createTenant("Grant hint");
    const ns = await createNamespace(key);
    const made = await createKey(org.id, { name: "made first" }); // granted nothing
    const other = await createNamespace((await createTenant("Grant hint other")).key);
    const answers = [];
    for (const id of [ns.id, "ns_doesNotExist123", other.id]) {
      const response = await api("POST", "/recall", { key: made.secret, body: { namespace_id: id, query: "tea" } });
      expect(response.status).toBe(404);
      answers.push(response.body.error.message.replace(id, "ID"));
      expect(response.body.error.message).toContain(
        "an owner or admin grants a namespace from its page in the console",
      );
    }
    expect(new Set(answers).size).toBe(1);
  });
});

describe("the key-creation policy is the same for the console and the command line", () => {
  test("a member may grant a key only the namespaces granted to them", async () => {
    const { org, key } = await createTenant();
    const { inviteMember } = await import("@/lib/orgs/members");
    const { createApiKey } = await import("@/lib/auth/api-keys/create-api-key");
    const email = `grantor-${Date.now()}@example.com`;
    const member = await inviteMember({ orgId: org.id, email, role: "member" }, { type: "system" });
    const ns = await createNamespace(key);
    const make = () =>
      createApiKey(
        { orgId: org.id, name: "m", permissions: ["NAMESPACE_READ"], namespaceIds: [ns.id], createdById: member.id },
        { type: "user", id: member.id },
      );
    const refusal = { name: "NotFoundError", message: expect.stringMatching(`^Namespace ${ns.id} not found\\. `) };
    await expect(make()).rejects.toMatchObject(refusal);
    expect((await api("POST", `/namespaces/${ns.id}/grants`, { key, body: { user_id: member.id } })).status).toBe(201);
    await expect(make()).resolves.toMatchObject({ namespaceIds: [ns.id] });
  });

  test("the CLI is refused a key with more than 100 namespaces, with the console form's words", async () => {
    const { org } = await createTenant();
    const { runAdminCommand } = await import("@/lib/admin/commands");
    const { ApiKeyForm } = await import("@/lib/auth/schemas");
    const namespaceIds = Array.from({ length: 101 }, (_, i) => `ns_${i}`);
    const form = ApiKeyForm.safeParse({
      name: "k",
      permissions: ["NAMESPACE_READ"],
      scopes: {},
      namespace_ids: namespaceIds,
    });
    expect(form.error?.issues).toMatchObject([{ path: ["namespace_ids"] }]);
    const args = { org: org.id, name: "k", permissions: "NAMESPACE_READ", grant: namespaceIds };
    const cli = runAdminCommand("key create", args);
    await expect(cli).rejects.toMatchObject({
      name: "InvalidError",
      details: [{ field: "namespace_ids", message: form.error!.issues[0].message }],
    });
    const prisma = await db();
    expect(await prisma.apiKey.count({ where: { orgId: org.id, name: "k" } })).toBe(0);
  });

  test("scopes typed as key=value are read the same way by the console and the CLI", async () => {
    const { parseScopePairs } = await import("@/lib/auth/scopes");
    const scopes = { team: "sales", region: "eu" };
    expect(parseScopePairs(" team = sales , region=eu ,".split(","))).toEqual({ scopes });
    expect(parseScopePairs([" team = sales ", "region=eu"])).toEqual({ scopes });
    expect(parseScopePairs(["=sales"])).toEqual({ error: '"=sales" is not of the form key=value' });
    expect(parseScopePairs(["team"])).toEqual({ error: '"team" is not of the form key=value' });
  });
});
