// Who may touch a connection, and what a state is worth: a state is single-use, expires, and belongs to
// one connection of one organization; a connection of another organization is a 404 on every route; a key
// without INTEGRATION_MANAGE, or with scopes, is refused; nothing changes on any refusal.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { authenticateApiKey } from "@/lib/auth/api-keys/authenticate-api-key";
import type { Role } from "@/lib/generated/prisma/enums";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import {
  bindConnectionToBrowser,
  browserBindingCookie,
} from "@/lib/integrations/connections/bind-connection-to-browser";
import { addMember } from "@/lib/orgs/members";
import { createUser } from "@/lib/orgs/users";
import { api } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";
import { connect, forgetFake, runSyncs, startConnection, useFake } from "../helpers/integrations";
import { startNotionFake } from "../helpers/providers/notion";
import type { FakeProvider } from "../helpers/providers/oauth-server";

// The console session the callback reads (next-auth's, as in the console's own tests): nobody, unless a test says.
const getServerSession = vi.hoisted(() => vi.fn());
vi.mock("next-auth", () => ({ getServerSession }));
vi.mock("@/lib/console/auth", () => ({ authOptions: async () => ({}) }));

let fake: FakeProvider & { content: { connectOptions: Record<string, unknown> } };
beforeAll(async () => {
  fake = await startNotionFake();
  useFake(fake);
});
afterAll(async () => {
  forgetFake("notion");
  await fake?.stop();
});

async function snapshot(connectionId: string) {
  const prisma = await db();
  const connection = await prisma.integrationConnection.findUnique({ where: { id: connectionId } });
  const memories = connection ? await prisma.memory.count({ where: { namespaceId: connection.namespaceId } }) : 0;
  const jobs = await prisma.job.count({ where: { key: { contains: connectionId } } });
  return { connection, memories, jobs };
}

function codeAndState(redirect: URL) {
  return { code: redirect.searchParams.get("code"), state: redirect.searchParams.get("state") };
}

describe("the OAuth state", () => {
  test("is single-use: completing twice is a 400 and changes nothing", async () => {
    const { key } = await createTenant("State reuse");
    const namespace = await createNamespace(key);
    const { connection, authorization_url } = await startConnection(key, fake, { namespace_id: namespace.id });
    const { redirect } = await fake.approve(authorization_url);
    const first = await api("POST", `/integrations/connections/${connection.id}/complete`, {
      key,
      body: codeAndState(redirect),
    });
    expect(first.status).toBe(200);
    const before = await snapshot(connection.id);
    const second = await api("POST", `/integrations/connections/${connection.id}/complete`, {
      key,
      body: codeAndState(redirect),
    });
    expect(second.status).toBe(400);
    expect(second.body.error.message).toMatch(/state is wrong, already used or expired/);
    expect(await snapshot(connection.id)).toEqual(before);
  });

  test("of another connection or another organization is refused, and that state stays usable by its own", async () => {
    const a = await createTenant("State org A");
    const b = await createTenant("State org B");
    const namespaceA = await createNamespace(a.key);
    const namespaceB = await createNamespace(b.key);
    const startedA = await startConnection(a.key, fake, { namespace_id: namespaceA.id });
    const startedB = await startConnection(b.key, fake, { namespace_id: namespaceB.id });
    const otherA = await startConnection(a.key, fake, { namespace_id: namespaceA.id });
    const approvedB = await fake.approve(startedB.authorization_url);
    const approvedOtherA = await fake.approve(otherA.authorization_url);
    const beforeA = await snapshot(startedA.connection.id);

    // Org B's state on org A's connection; org A's other connection's state on this one.
    for (const redirect of [approvedB.redirect, approvedOtherA.redirect]) {
      const refused = await api("POST", `/integrations/connections/${startedA.connection.id}/complete`, {
        key: a.key,
        body: codeAndState(redirect),
      });
      expect(refused.status).toBe(400);
    }
    expect(await snapshot(startedA.connection.id)).toEqual(beforeA);
    expect((await snapshot(startedA.connection.id)).connection!.accessTokenEncrypted).toBeNull();

    // Org A's key cannot complete org B's connection even with B's own state: it does not exist for A.
    const crossed = await api("POST", `/integrations/connections/${startedB.connection.id}/complete`, {
      key: a.key,
      body: codeAndState(approvedB.redirect),
    });
    expect(crossed.status).toBe(404);

    // The refusals spent nothing: each state still completes its own connection.
    for (const [key, id, redirect] of [
      [b.key, startedB.connection.id, approvedB.redirect],
      [a.key, otherA.connection.id, approvedOtherA.redirect],
    ] as const) {
      const completed = await api("POST", `/integrations/connections/${id}/complete`, {
        key,
        body: codeAndState(redirect),
      });
      expect(completed.status).toBe(200);
      expect(completed.body.data.status).toBe("active");
    }
  });

  test("expires after 10 minutes", async () => {
    const { key } = await createTenant("State expiry");
    const namespace = await createNamespace(key);
    const { connection, authorization_url } = await startConnection(key, fake, { namespace_id: namespace.id });
    const { redirect } = await fake.approve(authorization_url);
    const prisma = await db();
    await prisma.integrationConnection.update({
      where: { id: connection.id },
      data: { stateExpiresAt: new Date(Date.now() - 1000) },
    });
    const before = await snapshot(connection.id);
    const expired = await api("POST", `/integrations/connections/${connection.id}/complete`, {
      key,
      body: codeAndState(redirect),
    });
    expect(expired.status).toBe(400);
    expect(await snapshot(connection.id)).toEqual(before);
  });

  test("a code the provider refuses is a 400, the connection stays pending with no token", async () => {
    const { key } = await createTenant("Bad code");
    const namespace = await createNamespace(key);
    const { connection, authorization_url } = await startConnection(key, fake, { namespace_id: namespace.id });
    const { redirect } = await fake.approve(authorization_url);
    const refused = await api("POST", `/integrations/connections/${connection.id}/complete`, {
      key,
      body: { code: "not-the-code", state: redirect.searchParams.get("state") },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/refused the authorization code/);
    const { connection: row } = await snapshot(connection.id);
    expect(row).toMatchObject({ status: "pending", accessTokenEncrypted: null, refreshTokenEncrypted: null });
    expect(row!.lastError).toMatch(/connect again/);
  });

  test("PKCE: a provider that takes it gets an S256 challenge, and the state is in the URL, not stored", async () => {
    const { key } = await createTenant("PKCE");
    const namespace = await createNamespace(key);
    process.env.GOOGLE_DRIVE_CLIENT_ID = "drive-client";
    process.env.GOOGLE_DRIVE_CLIENT_SECRET = "drive-secret";
    try {
      const started = await api("POST", "/integrations/connections", {
        key,
        body: { provider: "google_drive", namespace_id: namespace.id },
      });
      expect(started.status).toBe(201);
      const url = new URL(started.body.data.authorization_url);
      expect(url.origin + url.pathname).toBe("https://accounts.google.com/o/oauth2/v2/auth");
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(url.searchParams.get("access_type")).toBe("offline");
      const state = url.searchParams.get("state")!;
      expect(state.length).toBeGreaterThanOrEqual(43);
      const row = (await snapshot(started.body.data.connection.id)).connection!;
      expect(JSON.stringify(row)).not.toContain(state);
      expect(row.codeVerifierEncrypted).toMatch(/^v1:/);
    } finally {
      delete process.env.GOOGLE_DRIVE_CLIENT_ID;
      delete process.env.GOOGLE_DRIVE_CLIENT_SECRET;
    }
  });
});

/** The cookie a console-started flow leaves in its browser (what the connect action sets). */
async function flowCookie(key: string, connectionId: string) {
  const nonce = await bindConnectionToBrowser(await authenticateApiKey(`Bearer ${key}`), connectionId);
  return { cookie: `${browserBindingCookie(connectionId)}=${nonce}` };
}

async function personIn(orgId: string, role: Role) {
  const user = await createUser({ email: `${role}-${Math.random().toString(36).slice(2)}@callback.test` });
  await addMember({ orgId, userId: user.id, role }, SYSTEM_ACTOR);
  return user.id;
}

describe("the browser callback", () => {
  test("completes the connection in the browser that started it and opens the integrations page", async () => {
    const { org, key } = await createTenant("Callback");
    const namespace = await createNamespace(key);
    const { connection, authorization_url } = await startConnection(key, fake, { namespace_id: namespace.id });
    const headers = await flowCookie(key, connection.id);
    const { redirect } = await fake.approve(authorization_url);
    expect(redirect.pathname).toBe("/api/v1/integrations/callback");
    const answer = await api("GET", `/integrations/callback${redirect.search}`, { headers });
    expect(answer.status).toBe(303);
    const page = new URL(answer.headers.get("location")!);
    expect(page.pathname).toBe(`/${org.slug}/integrations`);
    expect(page.searchParams.get("connected")).toBe(connection.id);
    const again = await api("GET", `/integrations/callback${redirect.search}`, { headers });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("BAD_REQUEST");
  });

  test("another browser (a forwarded consent link) is refused, and the state stays its starter's", async () => {
    // The attacker starts a flow and sends its consent link to someone else, whose browser comes back with
    // their own account's code: without the starter's cookie or session, nothing is connected.
    const { key } = await createTenant("Forwarded link");
    const namespace = await createNamespace(key);
    const { connection, authorization_url } = await startConnection(key, fake, { namespace_id: namespace.id });
    const headers = await flowCookie(key, connection.id);
    const { redirect } = await fake.approve(authorization_url);
    const before = await snapshot(connection.id);
    const others: Record<string, string>[] = [{}, { cookie: `${browserBindingCookie(connection.id)}=not-the-nonce` }];
    for (const other of others) {
      const refused = await api("GET", `/integrations/callback${redirect.search}`, { headers: other });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(/browser where you started it/);
    }
    expect(await snapshot(connection.id)).toEqual(before);
    expect(before.connection!.accessTokenEncrypted).toBeNull();
    const own = await api("GET", `/integrations/callback${redirect.search}`, { headers });
    expect(own.status).toBe(303);
  });

  test("a flow started through the API completes only for a signed-in member who manages integrations", async () => {
    const { org, key } = await createTenant("API-started");
    const other = await createTenant("Someone else's");
    const namespace = await createNamespace(key);
    const { connection, authorization_url } = await startConnection(key, fake, { namespace_id: namespace.id });
    const { redirect } = await fake.approve(authorization_url);
    const plainMember = await personIn(org.id, "member");
    const outsider = await personIn(other.org.id, "owner");
    try {
      for (const userId of [undefined, plainMember, outsider]) {
        getServerSession.mockResolvedValue(userId ? { userId, sessionId: "ses_x", method: "password" } : null);
        const refused = await api("GET", `/integrations/callback${redirect.search}`);
        expect(refused.status, String(userId)).toBe(403);
      }
      expect((await snapshot(connection.id)).connection!.accessTokenEncrypted).toBeNull();
      getServerSession.mockResolvedValue({
        userId: await personIn(org.id, "admin"),
        sessionId: "s",
        method: "password",
      });
      const completed = await api("GET", `/integrations/callback${redirect.search}`);
      expect(completed.status).toBe(303);
      expect(new URL(completed.headers.get("location")!).searchParams.get("connected")).toBe(connection.id);
    } finally {
      getServerSession.mockResolvedValue(null);
    }
  });

  test("a refusal at the consent page comes back as a message, and the connection stays pending", async () => {
    const { org, key } = await createTenant("Callback denied");
    const namespace = await createNamespace(key);
    const { connection, authorization_url } = await startConnection(key, fake, { namespace_id: namespace.id });
    const headers = await flowCookie(key, connection.id);
    const state = new URL(authorization_url).searchParams.get("state")!;
    const answer = await api("GET", `/integrations/callback?error=<b>access_denied</b>&state=${state}`, { headers });
    expect(answer.status).toBe(303);
    const page = new URL(answer.headers.get("location")!);
    expect(page.pathname).toBe(`/${org.slug}/integrations`);
    expect(page.searchParams.get("error")).toMatch(/did not authorize the connection \(an error it did not name\)/);
    expect((await snapshot(connection.id)).connection!.status).toBe("pending");
  });

  test("an unknown state is a 400 without a redirect", async () => {
    const answer = await api("GET", "/integrations/callback?code=x&state=unknown-state");
    expect(answer.status).toBe(400);
  });
});

describe("another organization's connection", () => {
  test("is a 404 on every route, and nothing changes", async () => {
    const a = await createTenant("Owner org");
    const b = await createTenant("Prying org");
    const namespace = await createNamespace(a.key);
    const connection = await connect(a.key, fake, { namespace_id: namespace.id });
    await runSyncs();
    const before = await snapshot(connection.id);
    expect(before.memories).toBeGreaterThan(0);
    const id = connection.id;
    for (const [method, path, body] of [
      ["GET", `/integrations/connections/${id}`, undefined],
      ["POST", `/integrations/connections/${id}/sync`, undefined],
      ["POST", `/integrations/connections/${id}/complete`, { code: "x", state: "y" }],
      ["DELETE", `/integrations/connections/${id}`, undefined],
      ["DELETE", `/integrations/connections/${id}?keep_memories=true`, undefined],
    ] as const) {
      const response = await api(method, path, { key: b.key, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error.code).toBe("NOT_FOUND");
    }
    const listed = await api("GET", "/integrations/connections", { key: b.key });
    expect(listed.body.data).toEqual([]);
    const filtered = await api("GET", `/integrations/connections?namespace_id=${namespace.id}`, { key: b.key });
    expect(filtered.body.data).toEqual([]);
    // Nor can org B connect org A's namespace.
    const intoA = await api("POST", "/integrations/connections", {
      key: b.key,
      body: { provider: "notion", namespace_id: namespace.id },
    });
    expect(intoA.status).toBe(404);
    expect(await snapshot(id)).toEqual(before);
    expect(fake.revokedTokens).toEqual([]);
  });

  test("a key of the same organization not granted the namespace does not see its connection", async () => {
    const { org, key } = await createTenant("Ungranted");
    const namespace = await createNamespace(key);
    const connection = await connect(key, fake, { namespace_id: namespace.id });
    const other = await createKey(org.id, { name: "other namespaces only" });
    const response = await api("GET", `/integrations/connections/${connection.id}`, { key: other.secret });
    expect(response.status).toBe(404);
    expect((await api("DELETE", `/integrations/connections/${connection.id}`, { key: other.secret })).status).toBe(404);
  });
});

describe("permissions", () => {
  test("a key without INTEGRATION_MANAGE, or with scopes, is refused on every route and nothing changes", async () => {
    const { org, key } = await createTenant("Permissions");
    const namespace = await createNamespace(key);
    const connection = await connect(key, fake, { namespace_id: namespace.id });
    const before = await snapshot(connection.id);
    const readWrite = await createKey(org.id, {
      permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE", "NAMESPACE_MANAGE"],
      namespaceIds: [namespace.id],
    });
    const scoped = await createKey(org.id, {
      permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE", "INTEGRATION_MANAGE"],
      scopes: { team: "a" },
      namespaceIds: [namespace.id],
    });
    const id = connection.id;
    for (const refused of [readWrite.secret, scoped.secret]) {
      for (const [method, path, body] of [
        ["GET", "/integrations/providers", undefined],
        ["GET", "/integrations/connections", undefined],
        ["POST", "/integrations/connections", { provider: "notion", namespace_id: namespace.id }],
        ["GET", `/integrations/connections/${id}`, undefined],
        ["POST", `/integrations/connections/${id}/sync`, undefined],
        ["POST", `/integrations/connections/${id}/complete`, { code: "x", state: "y" }],
        ["DELETE", `/integrations/connections/${id}`, undefined],
      ] as const) {
        const response = await api(method, path, { key: refused, body });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(response.body.error.code).toBe("FORBIDDEN");
      }
    }
    expect(await snapshot(id)).toEqual(before);
    const prisma = await db();
    expect(await prisma.integrationConnection.count({ where: { orgId: org.id } })).toBe(1);
  });
});

describe("what a connection may change", () => {
  test("INTEGRATION_MANAGE alone writes nothing: connecting and syncing need NAMESPACE_WRITE too", async () => {
    const { org, key } = await createTenant("Manage only");
    const namespace = await createNamespace(key);
    const connection = await connect(key, fake, { namespace_id: namespace.id });
    const manageOnly = await createKey(org.id, { permissions: ["INTEGRATION_MANAGE"], namespaceIds: [namespace.id] });
    const listed = await api("GET", "/integrations/connections", { key: manageOnly.secret });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([connection.id]);
    for (const [method, path, body] of [
      ["POST", "/integrations/connections", { provider: "notion", namespace_id: namespace.id }],
      ["POST", `/integrations/connections/${connection.id}/sync`, undefined],
      ["POST", `/integrations/connections/${connection.id}/reconnect`, {}],
      ["DELETE", `/integrations/connections/${connection.id}`, undefined],
    ] as const) {
      const refused = await api(method, path, { key: manageOnly.secret, body });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.error.message).toMatch(/NAMESPACE_WRITE/);
    }
    const prisma = await db();
    expect(await prisma.integrationConnection.count({ where: { orgId: org.id } })).toBe(1);
  });

  test("a synced memory forgotten by hand is stored again by the next sync", async () => {
    const { key } = await createTenant("Forgotten by hand");
    const namespace = await createNamespace(key);
    const connection = await connect(key, fake, { namespace_id: namespace.id });
    await runSyncs();
    const prisma = await db();
    const memories = await prisma.memory.findMany({ where: { namespaceId: namespace.id } });
    const forgotten = await api("POST", "/forget", {
      key,
      body: { namespace_id: namespace.id, memory_ids: [memories[0].id] },
    });
    expect(forgotten.body.data.deleted).toBe(1);
    expect(await prisma.integrationDocument.count({ where: { connectionId: connection.id } })).toBe(
      memories.length - 1,
    );
    await api("POST", `/integrations/connections/${connection.id}/sync`, { key });
    await runSyncs();
    const state = await api("GET", `/integrations/connections/${connection.id}`, { key });
    expect(state.body.data).toMatchObject({ status: "active", documents_synced: memories.length });
    expect(await prisma.memory.count({ where: { namespaceId: namespace.id } })).toBe(memories.length);
  });
});

describe("bad input", () => {
  test("is a 400 naming the field, and creates nothing", async () => {
    const { org, key } = await createTenant("Bad input");
    const namespace = await createNamespace(key);
    const cases: [Record<string, unknown>, string][] = [
      [{ provider: "dropbox", namespace_id: namespace.id }, "body.provider"],
      [{ provider: "notion" }, "body"],
      [{ provider: "notion", namespace_id: namespace.id, external_reference_id: "x" }, "body"],
      [{ provider: "notion", namespace_id: namespace.id, redirect_uri: "javascript:alert(1)" }, "body.redirect_uri"],
      [{ provider: "notion", namespace_id: namespace.id, redirect_uri: "http://evil.example/cb" }, "body.redirect_uri"],
      [{ provider: "notion", namespace_id: namespace.id, options: { pages: ["x"] } }, "body.options"],
      [{ provider: "notion", namespace_id: namespace.id, extra: 1 }, "body"],
      [{ provider: "notion", namespace_id: "ns\u0000x" }, "body.namespace_id"],
    ];
    for (const [body, field] of cases) {
      const response = await api("POST", "/integrations/connections", { key, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe("BAD_REQUEST");
      expect(response.body.error.details.some((d: { field: string }) => d.field.startsWith(field))).toBe(true);
    }
    const prisma = await db();
    expect(await prisma.integrationConnection.count({ where: { orgId: org.id } })).toBe(0);
    const page = await api("GET", "/integrations/connections?page=0", { key });
    expect(page.status).toBe(400);
    const keep = await api("DELETE", "/integrations/connections/int_x?keep_memories=maybe", { key });
    expect(keep.status).toBe(400);
  });

  test("a provider without an OAuth client is a 409 saying how to configure it", async () => {
    const { key } = await createTenant("Unconfigured");
    const namespace = await createNamespace(key);
    const response = await api("POST", "/integrations/connections", {
      key,
      body: { provider: "slack", namespace_id: namespace.id },
    });
    expect(response.status).toBe(409);
    expect(response.body.error.message).toMatch(/SLACK_CLIENT_ID/);
    const providers = await api("GET", "/integrations/providers", { key });
    expect(providers.status).toBe(200);
    const byId = Object.fromEntries(providers.body.data.map((p: { id: string }) => [p.id, p]));
    expect(Object.keys(byId).sort()).toEqual(["github", "google_drive", "notion", "slack"]);
    expect(byId.slack).toMatchObject({ configured: false, configured_by: null });
    expect(byId.notion).toMatchObject({ configured: true, configured_by: "deployment" });
    expect(byId.github.scopes).toEqual(["repo"]);
  });
});
