// The namespace pages' server actions, called directly as a browser could (any arguments): each re-checks
// the person's membership, role and the namespace's visibility; an id of another organization or of a
// namespace not granted to a member is "not found" and changes nothing.
import { beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "../helpers/api";
import { createKey } from "../helpers/fixtures";

const getServerSession = vi.hoisted(() => vi.fn());
vi.mock("next-auth", () => ({ getServerSession }));
vi.mock("@/lib/console/auth", () => ({ authOptions: async () => ({}) }));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

const actions = await import("@/lib/console/actions/namespaces");
const { db } = await import("@/lib/db");
const { newId } = await import("@/lib/ids");
const { SYSTEM_ACTOR } = await import("@/lib/audit/audit");
const { createOrganization } = await import("@/lib/orgs/organizations");
const { createUser } = await import("@/lib/orgs/users");
const { addMember } = await import("@/lib/orgs/members");
const { memberPrincipal } = await import("@/lib/auth/principal");
const { listNamespacesWithStats, namespaceGrantees, namespaceOverview, grantCandidates } =
  await import("@/lib/namespaces/overview");

type Role = "owner" | "admin" | "member";

async function person(orgId: string, role: Role, email = `${role}-${Math.random().toString(36).slice(2)}@x.test`) {
  const user = await createUser({ email });
  await addMember({ orgId, userId: user.id, role }, SYSTEM_ACTOR);
  return user;
}

function signedInAs(userId: string) {
  getServerSession.mockResolvedValue({ userId, sessionId: "ses_test", method: "password" });
}

async function namespaceRow(id: string) {
  return (await db()).namespace.findUnique({ where: { id } });
}

let orgA: { id: string; slug: string };
let orgB: { id: string; slug: string };
let adminA: { id: string };
let memberA: { id: string };
let adminB: { id: string };

beforeAll(async () => {
  orgA = await createOrganization("Acme Namespaces", SYSTEM_ACTOR);
  orgB = await createOrganization("Beta Namespaces", SYSTEM_ACTOR);
  adminA = await person(orgA.id, "admin");
  memberA = await person(orgA.id, "member");
  adminB = await person(orgB.id, "admin");
});
beforeEach(() => getServerSession.mockReset());

async function createAsAdminA(name: string, extra: Record<string, string | string[]> = {}) {
  signedInAs(adminA.id);
  const result = await actions.createNamespaceAction(orgA.slug, { name, ...extra });
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.data;
}

describe("an admin manages namespaces and their grants", () => {
  test("create, edit (and clear), delete", async () => {
    signedInAs(adminA.id);
    const created = await actions.createNamespaceAction(orgA.slug, {
      name: "  support-bot ",
      description: "",
      external_reference_id: "crm-1",
    });
    expect(created).toMatchObject({ ok: true, data: { name: "support-bot" } });
    const id = created.ok ? created.data.id : "";
    expect(await namespaceRow(id)).toMatchObject({ orgId: orgA.id, description: null, externalReferenceId: "crm-1" });

    expect(await actions.editNamespaceAction(orgA.slug, { namespace_id: id, description: "Support memories" })).toEqual(
      { ok: true, data: null },
    );
    expect(await actions.editNamespaceAction(orgA.slug, { namespace_id: id, external_reference_id: "" })).toEqual({
      ok: true,
      data: null,
    });
    expect(await namespaceRow(id)).toMatchObject({ description: "Support memories", externalReferenceId: null });

    expect(await actions.deleteNamespaceAction(orgA.slug, { namespace_id: id })).toEqual({ ok: true, data: null });
    expect(await namespaceRow(id)).toBeNull();
    const audit = await (
      await db()
    ).auditLog.findMany({
      where: { orgId: orgA.id, targetId: id },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((entry) => [entry.action, entry.actorType, entry.actorId])).toEqual(
      expect.arrayContaining([
        ["namespace.create", "user", adminA.id],
        ["namespace.update", "user", adminA.id],
        ["namespace.delete", "user", adminA.id],
      ]),
    );
    // An edit is on record with what it changed: the external reference id routes API calls.
    expect(audit.filter((entry) => entry.action === "namespace.update").map((entry) => entry.details)).toEqual([
      { description: { before: null, after: "Support memories" } },
      { external_reference_id: { before: "crm-1", after: null } },
    ]);
  });

  test("a duplicate name is the API's 409, on the name field; nothing is created", async () => {
    await createAsAdminA("taken-name");
    signedInAs(adminA.id);
    const before = await (await db()).namespace.count({ where: { orgId: orgA.id } });
    const result = await actions.createNamespaceAction(orgA.slug, { name: "taken-name" });
    const message = 'A namespace named "taken-name" already exists in this organization.';
    expect(result).toEqual({ ok: false, error: message, fields: { name: message } });
    expect(await (await db()).namespace.count({ where: { orgId: orgA.id } })).toBe(before);
  });

  test("a duplicate external reference id is on its own field, also when editing", async () => {
    await createAsAdminA("ref-one", { external_reference_id: "ref-dup" });
    const other = await createAsAdminA("ref-two");
    signedInAs(adminA.id);
    const result = await actions.editNamespaceAction(orgA.slug, {
      namespace_id: other.id,
      external_reference_id: "ref-dup",
    });
    expect(result).toMatchObject({ ok: false, fields: { external_reference_id: expect.stringContaining("ref-dup") } });
    expect(await namespaceRow(other.id)).toMatchObject({ externalReferenceId: null });
  });

  test("the create dialog grants the keys chosen; a revoked key or one of another org changes nothing", async () => {
    const first = await createKey(orgA.id, { name: "made first" });
    const second = await createKey(orgA.id, { name: "second" });
    const revoked = await createKey(orgA.id, { name: "revoked" });
    await (await db()).apiKey.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
    const foreign = await createKey(orgB.id, { name: "beta key" });
    const count = async () => (await db()).namespace.count({ where: { orgId: orgA.id } });
    const before = await count();
    signedInAs(adminA.id);
    for (const [index, keyId] of [foreign.id, revoked.id, "key_unknown"].entries()) {
      const result = await actions.createNamespaceAction(orgA.slug, {
        name: `refused-grant-${index}`,
        api_key_ids: [first.id, keyId],
      });
      expect(result).toEqual({
        ok: false,
        error: `The key ${keyId} is not an active API key of this organization.`,
        fields: { "api_key_ids.1": "is not an active API key of this organization" },
      });
    }
    expect(await count()).toBe(before);

    const made = await createAsAdminA("granted-at-birth", { api_key_ids: [first.id, first.id] });
    const reach = (key: string) => api("POST", "/recall", { key, body: { namespace_id: made.id, query: "tea" } });
    expect((await reach(first.secret)).status).toBe(200);
    expect((await reach(second.secret)).status).toBe(404);
    const grants = await (await db()).namespaceGrant.findMany({ where: { namespaceId: made.id } });
    expect(grants.map((grant) => grant.apiKeyId)).toEqual([first.id]);
  });

  test("invalid input names the field and changes nothing", async () => {
    signedInAs(adminA.id);
    const result = await actions.createNamespaceAction(orgA.slug, { name: "bad\u0000name" });
    expect(result).toMatchObject({ ok: false, fields: { name: expect.any(String) } });
    expect(await actions.createNamespaceAction(orgA.slug, { name: "x", extra: 1 })).toMatchObject({ ok: false });
    expect(await actions.createNamespaceAction(orgA.slug, "not an object")).toMatchObject({ ok: false });
    // The keys to grant: a NUL in an id, not a list, more than 100.
    const count = async () => (await db()).namespace.count({ where: { orgId: orgA.id, name: "bad-keys" } });
    for (const api_key_ids of [["key_\u0000x"], "key_x", Array.from({ length: 101 }, (_, i) => `key_${i}`)]) {
      const refused = await actions.createNamespaceAction(orgA.slug, { name: "bad-keys", api_key_ids });
      expect(refused).toMatchObject({ ok: false });
      expect(Object.keys((refused as { fields: object }).fields).some((f) => f.startsWith("api_key_ids"))).toBe(true);
    }
    expect(await count()).toBe(0);
    const ns = await createAsAdminA("edit-nothing");
    signedInAs(adminA.id);
    expect(await actions.editNamespaceAction(orgA.slug, { namespace_id: ns.id })).toMatchObject({
      ok: false,
      error: expect.stringContaining("at least one field"),
    });
  });

  test("grant a key and a member, then remove them: the key's very next API request follows", async () => {
    const ns = await createAsAdminA("granted-ns");
    const key = await createKey(orgA.id, { name: "reader", permissions: ["NAMESPACE_READ"] });
    expect((await api("GET", `/namespaces/${ns.id}`, { key: key.secret })).status).toBe(404);

    signedInAs(adminA.id);
    const granted = await actions.addGrantAction(orgA.slug, { namespace_id: ns.id, api_key_id: key.id });
    expect(granted).toMatchObject({ ok: true, data: { grant_id: expect.any(String) } });
    expect((await api("GET", `/namespaces/${ns.id}`, { key: key.secret })).status).toBe(200);

    const memberGrant = await actions.addGrantAction(orgA.slug, { namespace_id: ns.id, user_id: memberA.id });
    expect(memberGrant.ok).toBe(true);
    const again = await actions.addGrantAction(orgA.slug, { namespace_id: ns.id, user_id: memberA.id });
    expect(again).toMatchObject({ ok: false, error: expect.stringContaining("already has access") });

    const grantId = granted.ok ? granted.data.grant_id : "";
    expect(await actions.removeGrantAction(orgA.slug, { namespace_id: ns.id, grant_id: grantId })).toEqual({
      ok: true,
      data: null,
    });
    expect((await api("GET", `/namespaces/${ns.id}`, { key: key.secret })).status).toBe(404);
    expect(await (await db()).namespaceGrant.count({ where: { namespaceId: ns.id } })).toBe(1);
  });

  test("both or neither grantee is the API's validation error", async () => {
    const ns = await createAsAdminA("grantee-shape");
    const key = await createKey(orgA.id);
    signedInAs(adminA.id);
    const both = await actions.addGrantAction(orgA.slug, {
      namespace_id: ns.id,
      api_key_id: key.id,
      user_id: memberA.id,
    });
    expect(both).toMatchObject({ ok: false, error: expect.stringContaining("exactly one") });
    expect(await actions.addGrantAction(orgA.slug, { namespace_id: ns.id })).toMatchObject({ ok: false });
    expect(await (await db()).namespaceGrant.count({ where: { namespaceId: ns.id, apiKeyId: key.id } })).toBe(0);
  });
});

describe("forged ids answer “not found” and change nothing", () => {
  let ns: { id: string };
  let grantId: string;
  let keyA: { id: string };

  beforeAll(async () => {
    ns = await createAsAdminA("private-ns");
    keyA = await createKey(orgA.id, { name: "a key" });
    signedInAs(adminA.id);
    const granted = await actions.addGrantAction(orgA.slug, { namespace_id: ns.id, api_key_id: keyA.id });
    grantId = granted.ok ? granted.data.grant_id : "";
  });

  async function expectUnchanged() {
    const prisma = await db();
    expect(await namespaceRow(ns.id)).toMatchObject({ name: "private-ns", description: null });
    expect(await prisma.namespaceGrant.findMany({ where: { namespaceId: ns.id }, select: { id: true } })).toEqual([
      { id: grantId },
    ]);
  }

  const attempts = (namespaceId: string, grant: string) => [
    () => actions.editNamespaceAction(orgA.slug, { namespace_id: namespaceId, description: "pwned" }),
    () => actions.deleteNamespaceAction(orgA.slug, { namespace_id: namespaceId }),
    () => actions.addGrantAction(orgA.slug, { namespace_id: namespaceId, user_id: memberA.id }),
    () => actions.removeGrantAction(orgA.slug, { namespace_id: namespaceId, grant_id: grant }),
  ];

  test("a member without a grant, in their own organization", async () => {
    signedInAs(memberA.id);
    for (const attempt of attempts(ns.id, grantId)) {
      expect(await attempt()).toEqual({
        ok: false,
        error: expect.stringMatching(`^Namespace ${ns.id} not found\\. A key or member`),
      });
    }
    await expectUnchanged();
  });

  test("an admin of another organization, with this organization's ids through their own", async () => {
    signedInAs(adminB.id);
    const inB = (action: (slug: string, form: unknown) => Promise<unknown>, form: unknown) => action(orgB.slug, form);
    expect(await inB(actions.editNamespaceAction, { namespace_id: ns.id, description: "pwned" })).toEqual({
      ok: false,
      error: expect.stringMatching(`^Namespace ${ns.id} not found\\. A key or member`),
    });
    expect(await inB(actions.deleteNamespaceAction, { namespace_id: ns.id })).toMatchObject({ ok: false });
    expect(await inB(actions.removeGrantAction, { namespace_id: ns.id, grant_id: grantId })).toMatchObject({
      ok: false,
      error: expect.stringContaining("not found"),
    });
    // Through the other organization's slug: not a member there.
    for (const attempt of attempts(ns.id, grantId)) {
      expect(await attempt()).toEqual({ ok: false, error: "You are not a member of this organization." });
    }
    await expectUnchanged();
  });

  test("an admin of another organization granting their namespace to this organization's key or member", async () => {
    signedInAs(adminB.id);
    const own = await actions.createNamespaceAction(orgB.slug, { name: "b-ns" });
    const bNs = own.ok ? own.data.id : "";
    expect(await actions.addGrantAction(orgB.slug, { namespace_id: bNs, api_key_id: keyA.id })).toMatchObject({
      ok: false,
      error: expect.stringContaining("not found"),
    });
    expect(await actions.addGrantAction(orgB.slug, { namespace_id: bNs, user_id: memberA.id })).toMatchObject({
      ok: false,
      error: expect.stringContaining("not found"),
    });
    // A grant of this organization removed through a namespace of theirs.
    expect(await actions.removeGrantAction(orgB.slug, { namespace_id: bNs, grant_id: grantId })).toMatchObject({
      ok: false,
      error: `Grant ${grantId} not found.`,
    });
    expect(await (await db()).namespaceGrant.count({ where: { namespaceId: bNs } })).toBe(0);
    await expectUnchanged();
  });

  test("a slug no organization can have is refused before any session read", async () => {
    for (const action of [actions.createNamespaceAction, actions.deleteNamespaceAction, actions.addGrantAction]) {
      expect(await action("acme\u0000", { namespace_id: ns.id })).toEqual({
        ok: false,
        error: "Unknown organization.",
      });
    }
    expect(getServerSession).not.toHaveBeenCalled();
    await expectUnchanged();
  });

  test("a signed-out caller and malformed ids", async () => {
    getServerSession.mockResolvedValue(null);
    expect(await actions.deleteNamespaceAction(orgA.slug, { namespace_id: ns.id })).toEqual({
      ok: false,
      error: "Your session has ended. Sign in again.",
    });
    signedInAs(adminA.id);
    expect(await actions.deleteNamespaceAction(orgA.slug, { namespace_id: "ns\u0000x" })).toMatchObject({
      ok: false,
      fields: { namespace_id: expect.any(String) },
    });
    expect(await actions.deleteNamespaceAction(orgA.slug, { namespace_id: ["x"] })).toMatchObject({ ok: false });
    await expectUnchanged();
  });
});

describe("a member cannot manage", () => {
  test("create, edit, delete, grant, ungrant: refused for the role, even on a namespace granted to them", async () => {
    const ns = await createAsAdminA("member-granted");
    signedInAs(adminA.id);
    const own = await actions.addGrantAction(orgA.slug, { namespace_id: ns.id, user_id: memberA.id });
    const grantId = own.ok ? own.data.grant_id : "";
    const key = await createKey(orgA.id);

    signedInAs(memberA.id);
    const refusal = { ok: false, error: "This needs manage access, which the member role does not have." };
    expect(await actions.createNamespaceAction(orgA.slug, { name: "member-made" })).toEqual(refusal);
    expect(await actions.deleteNamespaceAction(orgA.slug, { namespace_id: ns.id })).toEqual(refusal);
    expect(await actions.editNamespaceAction(orgA.slug, { namespace_id: ns.id, description: "x" })).toEqual(refusal);
    expect(await actions.addGrantAction(orgA.slug, { namespace_id: ns.id, api_key_id: key.id })).toEqual(refusal);
    expect(await actions.removeGrantAction(orgA.slug, { namespace_id: ns.id, grant_id: grantId })).toEqual(refusal);

    const prisma = await db();
    expect(await prisma.namespace.count({ where: { orgId: orgA.id, name: "member-made" } })).toBe(0);
    expect(await namespaceRow(ns.id)).toMatchObject({ description: null });
    expect(await prisma.namespaceGrant.count({ where: { namespaceId: ns.id } })).toBe(1);
  });
});

describe("what the pages read", () => {
  test("the list: counts, last activity, name search (any case, literal), pages, a member sees their own", async () => {
    const org = await createOrganization("Stats Org", SYSTEM_ACTOR);
    const admin = await person(org.id, "admin");
    const member = await person(org.id, "member");
    signedInAs(admin.id);
    const made: { id: string; name: string }[] = [];
    for (const name of ["Alpha", "alphabet", "beta_1", "beta%", "gamma\\x"]) {
      const result = await actions.createNamespaceAction(org.slug, { name });
      if (result.ok) made.push(result.data);
    }
    const [alpha] = made;
    const prisma = await db();
    const key = await createKey(org.id, { namespaceIds: [alpha.id] });
    await actions.addGrantAction(org.slug, { namespace_id: alpha.id, user_id: member.id });
    const memory = (identityId: string | null) => ({
      id: newId("mem"),
      orgId: org.id,
      namespaceId: alpha.id,
      content: "x",
      identityId,
      chunkCount: 0,
    });
    await prisma.memory.createMany({ data: [memory("u1"), memory("u1"), memory("u2"), memory(null)] });
    const at = new Date("2026-11-01T10:00:00Z");
    await prisma.activityLog.createMany({
      data: [at, new Date("2026-10-01T10:00:00Z")].map((createdAt) => ({
        id: newId("act"),
        orgId: org.id,
        namespaceId: alpha.id,
        apiKeyId: key.id,
        operation: "recall",
        status: 200,
        latencyMs: 3,
        createdAt,
      })),
    });

    const admins = memberPrincipal({ orgId: org.id, userId: admin.id, role: "admin" });
    const page = await listNamespacesWithStats(admins, { page: 1, page_size: 50 }, {});
    expect(page.total).toBe(5);
    expect(page.items.find((ns) => ns.id === alpha.id)).toMatchObject({
      memoryCount: 4,
      grantCount: 2,
      lastActivityAt: at,
    });
    expect(page.items.find((ns) => ns.name === "gamma\\x")).toMatchObject({
      memoryCount: 0,
      grantCount: 0,
      lastActivityAt: null,
    });
    const names = async (nameContains: string) =>
      (await listNamespacesWithStats(admins, { page: 1, page_size: 50 }, { nameContains })).items.map((n) => n.name);
    expect(await names("ALPHA")).toEqual(["Alpha", "alphabet"]);
    expect(await names("%")).toEqual(["beta%"]);
    expect(await names("_")).toEqual(["beta_1"]);
    expect(await names("\\")).toEqual(["gamma\\x"]);

    const members = memberPrincipal({ orgId: org.id, userId: member.id, role: "member" });
    expect((await listNamespacesWithStats(members, { page: 1, page_size: 50 }, {})).items.map((n) => n.id)).toEqual([
      alpha.id,
    ]);
    expect(await namespaceOverview(members, alpha.id)).toMatchObject({ memoryCount: 4, identityCount: 2 });
    await expect(namespaceOverview(members, made[4].id)).rejects.toThrow("not found");

    for (let i = 0; i < 52; i++)
      await prisma.namespace.create({ data: { id: newId("ns"), orgId: org.id, name: `bulk-${i}` } });
    const second = await listNamespacesWithStats(admins, { page: 2, page_size: 50 }, {});
    expect(second).toMatchObject({ total: 57 });
    expect(second.items).toHaveLength(7);
  });

  test("the permissions panel: what each grantee can do here, and why a grant gives nothing", async () => {
    const org = await createOrganization("Panel Org", SYSTEM_ACTOR);
    const owner = await person(org.id, "owner");
    const member = await person(org.id, "member", `panel-member-${Math.random().toString(36).slice(2)}@x.test`);
    const otherMember = await person(org.id, "member");
    signedInAs(owner.id);
    const created = await actions.createNamespaceAction(org.slug, { name: "panel" });
    const ns = created.ok ? created.data : { id: "" };
    const { createApiKey } = await import("@/lib/auth/api-keys/create-api-key");
    const { revokeApiKey } = await import("@/lib/auth/api-keys/revoke-api-key");
    const make = async (
      name: string,
      createdById: string | undefined,
      permissions: ("NAMESPACE_READ" | "NAMESPACE_WRITE" | "NAMESPACE_MANAGE")[],
      scopes = {},
    ) => (await createApiKey({ orgId: org.id, name, permissions, scopes, createdById }, SYSTEM_ACTOR)).key;
    const operatorKey = await make("operator", undefined, ["NAMESPACE_READ", "NAMESPACE_WRITE", "NAMESPACE_MANAGE"]);
    const membersKey = await make("member's", member.id, ["NAMESPACE_READ"], { team: "a" });
    const revoked = await make("revoked", owner.id, ["NAMESPACE_READ"]);
    for (const key of [operatorKey, membersKey, revoked]) {
      expect(await actions.addGrantAction(org.slug, { namespace_id: ns.id, api_key_id: key.id })).toMatchObject({
        ok: true,
      });
    }
    await revokeApiKey(revoked.id, SYSTEM_ACTOR, { orgId: org.id });
    await actions.addGrantAction(org.slug, { namespace_id: ns.id, user_id: owner.id });

    const owners = memberPrincipal({ orgId: org.id, userId: owner.id, role: "owner" });
    let rows = await namespaceGrantees(owners, ns.id);
    const byName = (name: string) =>
      rows.find((row) => (row.kind === "api_key" ? row.key.name : row.user.email) === name)!;
    expect(byName("operator")).toMatchObject({ can: ["read", "write", "manage"], inactive: null });
    expect(byName("member's")).toMatchObject({
      can: [],
      inactive: expect.stringContaining("has no access to this namespace"),
      key: { permissions: ["read"], scopes: { team: "a" } },
    });
    expect(byName("revoked")).toMatchObject({ can: [], inactive: "The key is revoked." });
    const ownerRow = rows.find((row) => row.kind === "user")!;
    expect(ownerRow).toMatchObject({ can: ["read", "write", "manage"], user: { role: "owner" } });

    // The member's own grant activates their key's, as authentication would.
    await actions.addGrantAction(org.slug, { namespace_id: ns.id, user_id: member.id });
    rows = await namespaceGrantees(owners, ns.id);
    expect(byName("member's")).toMatchObject({ can: ["read"], inactive: null });
    expect(rows.filter((row) => row.kind === "user").map((row) => row.can)).toContainEqual(["read", "write"]);

    const candidates = await grantCandidates(owners, ns.id);
    expect(candidates.keys.map((key) => key.name)).toEqual([]);
    expect(candidates.members.map((m) => m.id)).toEqual([otherMember.id]);
  });
});
