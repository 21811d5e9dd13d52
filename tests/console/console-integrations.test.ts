// The integrations page's server actions, called directly as a browser could (any arguments): each re-checks
// the person's membership and role (INTEGRATION_MANAGE: owners and admins; the organization's OAuth client:
// owners only); an id of another organization is "not found" and changes nothing; the OAuth client secret
// never comes back in any result.
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";

const getServerSession = vi.hoisted(() => vi.fn());
vi.mock("next-auth", () => ({ getServerSession }));
vi.mock("@/lib/console/auth", () => ({ authOptions: async () => ({}) }));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
const flowCookies = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({ set: (name: string, value: string) => flowCookies.set(name, value) }),
}));

const actions = await import("@/lib/console/actions/integrations");
const { db } = await import("@/lib/db");
const { SYSTEM_ACTOR } = await import("@/lib/audit/audit");
const { createOrganization } = await import("@/lib/orgs/organizations");
const { createUser } = await import("@/lib/orgs/users");
const { addMember } = await import("@/lib/orgs/members");
const { memberPrincipal } = await import("@/lib/auth/principal");
const { createNamespace } = await import("@/lib/namespaces/namespaces");
const { operations } = await import("@/lib/operations/catalogue");
const { runOperation } = await import("@/lib/operations/run");

type Role = "owner" | "admin" | "member";

const GITHUB_AUTH_URL = "http://127.0.0.1:9/oauth/authorize";
const ORG_SECRET = "org-client-secret-that-must-never-come-back";

async function person(orgId: string, role: Role) {
  const user = await createUser({ email: `${role}-${Math.random().toString(36).slice(2)}@x.test` });
  await addMember({ orgId, userId: user.id, role }, SYSTEM_ACTOR);
  return user;
}

function signedInAs(userId: string) {
  getServerSession.mockResolvedValue({ userId, sessionId: "ses_test", method: "password" });
}

/** Every result an action answered in this file: none may carry the organization's client secret. */
const results: unknown[] = [];
function answered<T>(result: T): T {
  results.push(result);
  return result;
}

let orgA: { id: string; slug: string };
let orgB: { id: string; slug: string };
let ownerA: { id: string };
let adminA: { id: string };
let memberA: { id: string };
let ownerB: { id: string };
let namespaceA: { id: string };
let namespaceB: { id: string };

beforeAll(async () => {
  // The deployment's GitHub OAuth client: connections can start (the provider itself is never reached here).
  vi.stubEnv("GITHUB_CLIENT_ID", "deployment-github-client");
  vi.stubEnv("GITHUB_CLIENT_SECRET", "deployment-github-secret");
  vi.stubEnv("GITHUB_AUTH_URL", GITHUB_AUTH_URL);
  orgA = await createOrganization("Acme Integrations", SYSTEM_ACTOR);
  orgB = await createOrganization("Beta Integrations", SYSTEM_ACTOR);
  [ownerA, adminA, memberA, ownerB] = await Promise.all([
    person(orgA.id, "owner"),
    person(orgA.id, "admin"),
    person(orgA.id, "member"),
    person(orgB.id, "owner"),
  ]);
  const principalA = memberPrincipal({ orgId: orgA.id, userId: ownerA.id, role: "owner" });
  const principalB = memberPrincipal({ orgId: orgB.id, userId: ownerB.id, role: "owner" });
  namespaceA = await createNamespace(principalA, { name: "handbook" });
  namespaceB = await createNamespace(principalB, { name: "beta-handbook" });
});
beforeEach(() => getServerSession.mockReset());
afterAll(() => {
  vi.unstubAllEnvs();
});

async function connectAs(userId: string, slug: string, namespaceId: string, options: Record<string, unknown> = {}) {
  signedInAs(userId);
  return answered(
    await actions.connectIntegrationAction(slug, { provider: "github", namespace_id: namespaceId, options }),
  );
}

async function connectionsOf(orgId: string) {
  return (await db()).integrationConnection.findMany({ where: { orgId }, orderBy: { createdAt: "asc" } });
}

describe("connecting", () => {
  test("an admin starts a connection: pending, and the provider's consent page to go to", async () => {
    const result = await connectAs(adminA.id, orgA.slug, namespaceA.id, { repositories: ["octo-org/handbook"] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const url = new URL(result.data.authorization_url);
    expect(`${url.origin}${url.pathname}`).toBe(GITHUB_AUTH_URL);
    expect(url.searchParams.get("client_id")).toBe("deployment-github-client");
    // No redirect URI was given: the API's browser callback, which comes back to the console.
    expect(url.searchParams.get("redirect_uri")).toBe("http://gateway.test/api/v1/integrations/callback");
    const row = (await connectionsOf(orgA.id)).find((connection) => connection.id === result.data.connection_id);
    expect(row).toMatchObject({ namespaceId: namespaceA.id, provider: "github", status: "pending" });
    expect(row?.options).toEqual({ repositories: ["octo-org/handbook"] });
  });

  test("the provider's own option rules apply; their message lands on the option's field", async () => {
    const before = (await connectionsOf(orgA.id)).length;
    const result = await connectAs(adminA.id, orgA.slug, namespaceA.id, { repositories: ["not a repository"] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.fields ?? {}).some((field) => field.startsWith("options"))).toBe(true);
    expect((await connectionsOf(orgA.id)).length).toBe(before);
  });

  test("a namespace of another organization is not found; nothing is created anywhere", async () => {
    const [beforeA, beforeB] = [(await connectionsOf(orgA.id)).length, (await connectionsOf(orgB.id)).length];
    const result = await connectAs(adminA.id, orgA.slug, namespaceB.id);
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/not found/i) });
    expect((await connectionsOf(orgA.id)).length).toBe(beforeA);
    expect((await connectionsOf(orgB.id)).length).toBe(beforeB);
  });
});

describe("a member (role member) is refused everything, and nothing changes", () => {
  test("connect, sync, disconnect, save and remove the OAuth client", async () => {
    const own = await connectAs(ownerA.id, orgA.slug, namespaceA.id);
    if (!own.ok) throw new Error(JSON.stringify(own));
    const before = await connectionsOf(orgA.id);
    signedInAs(memberA.id);
    const id = own.data.connection_id;
    const refusals = [
      await actions.connectIntegrationAction(orgA.slug, { provider: "github", namespace_id: namespaceA.id }),
      await actions.syncIntegrationAction(orgA.slug, { connection_id: id }),
      await actions.reconnectIntegrationAction(orgA.slug, { connection_id: id }),
      await actions.connectionMemoriesAction(orgA.slug, { connection_id: id }),
      await actions.disconnectIntegrationAction(orgA.slug, { connection_id: id, keep_memories: false }),
      await actions.saveIntegrationClientAction(orgA.slug, {
        provider: "github",
        client_id: "member-client",
        client_secret: ORG_SECRET,
      }),
      await actions.removeIntegrationClientAction(orgA.slug, { provider: "github" }),
    ].map(answered);
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({ ok: false, error: expect.stringMatching(/role; you are member/) });
    }
    expect(await connectionsOf(orgA.id)).toEqual(before);
    expect(await (await db()).integrationClient.count({ where: { orgId: orgA.id } })).toBe(0);
  });
});

describe("a connection of another organization is not found, and stays as it was", () => {
  test("sync now, counting and disconnect by an admin of organization A on B's connection", async () => {
    const theirs = await connectAs(ownerB.id, orgB.slug, namespaceB.id);
    if (!theirs.ok) throw new Error(JSON.stringify(theirs));
    const before = await connectionsOf(orgB.id);
    signedInAs(adminA.id);
    const id = theirs.data.connection_id;
    for (const attempt of [
      await actions.syncIntegrationAction(orgA.slug, { connection_id: id }),
      await actions.reconnectIntegrationAction(orgA.slug, { connection_id: id }),
      await actions.connectionMemoriesAction(orgA.slug, { connection_id: id }),
      await actions.disconnectIntegrationAction(orgA.slug, { connection_id: id, keep_memories: false }),
      await actions.disconnectIntegrationAction(orgA.slug, { connection_id: id, keep_memories: true }),
    ].map(answered)) {
      expect(attempt).toMatchObject({ ok: false, error: expect.stringMatching(/not found/i) });
    }
    expect(await connectionsOf(orgB.id)).toEqual(before);
    // Nor does naming organization B's slug help: the admin of A is no member there.
    const viaTheirSlug = answered(await actions.disconnectIntegrationAction(orgB.slug, { connection_id: id }));
    expect(viaTheirSlug).toEqual({ ok: false, error: "You are not a member of this organization." });
    expect(await connectionsOf(orgB.id)).toEqual(before);
  });

  test("a connection id no row can have (a NUL) is refused as input, not a database error", async () => {
    signedInAs(adminA.id);
    const result = answered(await actions.syncIntegrationAction(orgA.slug, { connection_id: "con_\u0000" }));
    expect(result).toMatchObject({ ok: false });
  });
});

describe("disconnecting", () => {
  test("an admin disconnects their organization's connection: it is gone, with the counts", async () => {
    const own = await connectAs(adminA.id, orgA.slug, namespaceA.id);
    if (!own.ok) throw new Error(JSON.stringify(own));
    signedInAs(adminA.id);
    // Not authorized yet: there is nothing to sync, as the API says.
    const sync = answered(await actions.syncIntegrationAction(orgA.slug, { connection_id: own.data.connection_id }));
    expect(sync).toEqual({ ok: false, error: "This connection is not authorized yet: complete it first." });
    const count = answered(
      await actions.connectionMemoriesAction(orgA.slug, { connection_id: own.data.connection_id }),
    );
    expect(count).toEqual({ ok: true, data: { memories: 0 } });
    const result = answered(
      await actions.disconnectIntegrationAction(orgA.slug, { connection_id: own.data.connection_id }),
    );
    expect(result).toEqual({ ok: true, data: { memories_deleted: 0, memories_kept: 0 } });
    expect((await connectionsOf(orgA.id)).some((row) => row.id === own.data.connection_id)).toBe(false);
  });
});

describe("the organization's OAuth client", () => {
  test("an admin cannot save or remove it (owners only)", async () => {
    signedInAs(adminA.id);
    const save = answered(
      await actions.saveIntegrationClientAction(orgA.slug, {
        provider: "notion",
        client_id: "admin-notion-client",
        client_secret: ORG_SECRET,
      }),
    );
    expect(save).toEqual({ ok: false, error: "This needs the owner role; you are admin." });
    const remove = answered(await actions.removeIntegrationClientAction(orgA.slug, { provider: "notion" }));
    expect(remove).toEqual({ ok: false, error: "This needs the owner role; you are admin." });
    expect(await (await db()).integrationClient.count({ where: { orgId: orgA.id } })).toBe(0);
  });

  test("an owner saves it (the provider becomes configured by the organization) and removes it", async () => {
    signedInAs(ownerA.id);
    const principal = memberPrincipal({ orgId: orgA.id, userId: ownerA.id, role: "owner" });
    const notionOf = async () =>
      ((await runOperation(operations.listIntegrationProviders, principal, {})).data as { id: string }[]).find(
        (provider) => provider.id === "notion",
      );
    expect(await notionOf()).toMatchObject({ configured: false, configured_by: null });

    const saved = answered(
      await actions.saveIntegrationClientAction(orgA.slug, {
        provider: "notion",
        client_id: "org-notion-client",
        client_secret: ORG_SECRET,
      }),
    );
    expect(saved).toEqual({ ok: true, data: { provider: "notion", client_id: "org-notion-client" } });
    const stored = await (await db()).integrationClient.findFirstOrThrow({ where: { orgId: orgA.id } });
    expect(stored.clientId).toBe("org-notion-client");
    expect(stored.clientSecretEncrypted).not.toContain(ORG_SECRET);
    const configured = await notionOf();
    expect(configured).toMatchObject({ configured: true, configured_by: "organization" });
    results.push(configured);

    // Notion is connectable now, with the organization's client.
    signedInAs(ownerA.id);
    const notion = answered(
      await actions.connectIntegrationAction(orgA.slug, { provider: "notion", namespace_id: namespaceA.id }),
    );
    expect(notion.ok && new URL(notion.data.authorization_url).searchParams.get("client_id")).toBe("org-notion-client");

    expect(answered(await actions.removeIntegrationClientAction(orgA.slug, { provider: "notion" }))).toEqual({
      ok: true,
      data: null,
    });
    expect(await (await db()).integrationClient.count({ where: { orgId: orgA.id } })).toBe(0);
    expect(await notionOf()).toMatchObject({ configured: false });
  });

  test("an empty secret is refused on its field; nothing is stored", async () => {
    signedInAs(ownerA.id);
    const result = answered(
      await actions.saveIntegrationClientAction(orgA.slug, { provider: "slack", client_id: "x", client_secret: "" }),
    );
    expect(result).toMatchObject({ ok: false, fields: { client_secret: expect.any(String) } });
    expect(await (await db()).integrationClient.count({ where: { orgId: orgA.id } })).toBe(0);
  });
});

test("the organization's client secret never came back in any action's result", () => {
  expect(results.length).toBeGreaterThan(10);
  for (const result of results) expect(JSON.stringify(result)).not.toContain(ORG_SECRET);
});
