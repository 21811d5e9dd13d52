// Editing API keys from the console (the keys page and the scopes page): the server actions are called
// directly, as a crafted request could, with a mocked session. The policy is createApiKey's: members only
// their own keys, within their role and namespaces; owners and admins any key of their organization; ids of
// another organization are not found and change nothing; every edit is audited and applies at once.
import { beforeAll, beforeEach, describe, expect, test, vi } from "vitest";

const getServerSession = vi.hoisted(() => vi.fn());
vi.mock("next-auth", () => ({ getServerSession }));
vi.mock("@/lib/console/auth", () => ({ authOptions: async () => ({}) }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { SYSTEM_ACTOR } = await import("@/lib/audit/audit");
const { authenticateApiKey } = await import("@/lib/auth/api-keys/authenticate-api-key");
const { memberPrincipal } = await import("@/lib/auth/principal");
const { db } = await import("@/lib/db");
const { inviteMember } = await import("@/lib/orgs/members");
const { editApiKey, createNamespaceForKey, generateApiKey } = await import("@/lib/console/actions/keys");
const { invite } = await import("@/lib/console/actions/org");
const { invitationMessage } = await import("@/lib/console/messages");
const { scopeUsage } = await import("@/lib/memory/common/scopes");
const { api } = await import("../helpers/api");
const { createNamespace, createTenant } = await import("../helpers/fixtures");
const { recallContents, rememberAll } = await import("../helpers/memory");

const unique = () => Math.random().toString(36).slice(2, 8);

// Opening the embedded database (its migrations) takes a while on a busy machine: not inside a test's time.
beforeAll(async () => {
  await db();
});
beforeEach(() => getServerSession.mockReset());

/** The next action calls run as this user (a console session signed in with a password). */
function signInAs(userId: string) {
  getServerSession.mockResolvedValue({ userId, sessionId: `ses_${unique()}`, method: "password" });
}

/** An organization with an owner, an admin and two members, a full-access operator key and two namespaces. */
async function organization() {
  const { org, key } = await createTenant(`Keys ${unique()}`);
  const person = (role: "owner" | "admin" | "member") =>
    inviteMember({ orgId: org.id, email: `${role}-${unique()}@example.com`, role }, SYSTEM_ACTOR);
  const [owner, admin, ana, ben] = await Promise.all([
    person("owner"),
    person("admin"),
    person("member"),
    person("member"),
  ]);
  const granted = await createNamespace(key);
  const ungranted = await createNamespace(key);
  for (const member of [ana, ben]) {
    const grant = await api("POST", `/namespaces/${granted.id}/grants`, { key, body: { user_id: member.id } });
    expect(grant.status).toBe(201);
  }
  return { org, key, owner, admin, ana, ben, granted, ungranted };
}

/** A key generated in the console by `userId`, through the action. */
async function consoleKey(slug: string, userId: string, form: Record<string, unknown> = {}) {
  signInAs(userId);
  const result = await generateApiKey(slug, {
    name: `key ${unique()}`,
    permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"],
    scopes: {},
    namespace_ids: [],
    ...form,
  });
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.data;
}

async function keyState(keyId: string) {
  const prisma = await db();
  const key = await prisma.apiKey.findUniqueOrThrow({ where: { id: keyId }, include: { grants: true } });
  return {
    permissions: [...key.permissions].sort(),
    scopes: key.scopes,
    namespaceIds: key.grants.map((grant) => grant.namespaceId).sort(),
  };
}

async function updates(keyId: string) {
  const prisma = await db();
  const rows = await prisma.auditLog.findMany({ where: { targetId: keyId, action: "api_key.update" } });
  return rows.map((row) => ({ actor: row.actorId, details: row.details }));
}

describe("a member edits keys", () => {
  test("their own key, within their role and namespaces: applied at once, audited with before and after", async () => {
    const { org, ana, granted } = await organization();
    const created = await consoleKey(org.slug, ana.id);
    const result = await editApiKey(org.slug, {
      key_id: created.id,
      permissions: ["NAMESPACE_READ"],
      scopes: { team: "sales" },
      namespace_ids: [granted.id],
    });
    expect(result).toMatchObject({ ok: true, data: { id: created.id, namespaceIds: [granted.id] } });
    expect(await keyState(created.id)).toEqual({
      permissions: ["NAMESPACE_READ"],
      scopes: { team: "sales" },
      namespaceIds: [granted.id],
    });
    // Keys are read from the database on every request: the very next one runs with the change.
    expect(await authenticateApiKey(`Bearer ${created.secret}`)).toMatchObject({
      permissions: ["NAMESPACE_READ"],
      scopes: { team: "sales" },
    });
    expect(await updates(created.id)).toEqual([
      {
        actor: ana.id,
        details: {
          name: created.name,
          before: { permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"], scopes: {}, namespace_ids: [] },
          after: { permissions: ["NAMESPACE_READ"], scopes: { team: "sales" }, namespace_ids: [granted.id] },
        },
      },
    ]);
  });

  test("another member's key is not found, and nothing changes", async () => {
    const { org, ana, ben, granted } = await organization();
    const bens = await consoleKey(org.slug, ben.id);
    const before = await keyState(bens.id);
    signInAs(ana.id);
    const result = await editApiKey(org.slug, { key_id: bens.id, scopes: { team: "x" }, namespace_ids: [granted.id] });
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/not found/i) });
    expect(await keyState(bens.id)).toEqual(before);
    expect(await updates(bens.id)).toEqual([]);
  });

  test("cannot give their key manage, nor a namespace not granted to them; nothing changes", async () => {
    const { org, ana, ungranted } = await organization();
    const created = await consoleKey(org.slug, ana.id);
    const before = await keyState(created.id);
    const manage = await editApiKey(org.slug, { key_id: created.id, permissions: ["NAMESPACE_MANAGE"] });
    expect(manage).toMatchObject({ ok: false, error: "A member cannot give a key NAMESPACE_MANAGE." });
    const reach = await editApiKey(org.slug, { key_id: created.id, namespace_ids: [ungranted.id] });
    expect(reach).toMatchObject({
      ok: false,
      error: expect.stringMatching(`^Namespace ${ungranted.id} not found\\. `),
    });
    expect(await keyState(created.id)).toEqual(before);
    expect(await updates(created.id)).toEqual([]);
  });

  test("their edit keeps the key's grants they cannot see (added by an admin)", async () => {
    const { org, ana, admin, granted, ungranted } = await organization();
    const created = await consoleKey(org.slug, ana.id, { namespace_ids: [granted.id] });
    signInAs(admin.id);
    expect(await editApiKey(org.slug, { key_id: created.id, namespace_ids: [granted.id, ungranted.id] })).toMatchObject(
      { ok: true },
    );
    signInAs(ana.id);
    expect(await editApiKey(org.slug, { key_id: created.id, namespace_ids: [] })).toMatchObject({ ok: true });
    expect((await keyState(created.id)).namespaceIds).toEqual([ungranted.id]);
  });
});

describe("owners and admins edit any key of their organization, and only of theirs", () => {
  test("an admin edits a member's key; within the member's role (no manage)", async () => {
    const { org, ana, admin, ungranted } = await organization();
    const created = await consoleKey(org.slug, ana.id);
    signInAs(admin.id);
    expect(await editApiKey(org.slug, { key_id: created.id, namespace_ids: [ungranted.id] })).toMatchObject({
      ok: true,
    });
    const manage = await editApiKey(org.slug, {
      key_id: created.id,
      permissions: ["NAMESPACE_READ", "NAMESPACE_MANAGE"],
    });
    expect(manage).toMatchObject({ ok: false, error: "A key whose creator is a member cannot have NAMESPACE_MANAGE." });
    expect((await keyState(created.id)).permissions).toEqual(["NAMESPACE_READ", "NAMESPACE_WRITE"]);
  });

  test("org B's admin with org A's key id or namespace id: not found, nothing changes", async () => {
    const a = await organization();
    const b = await organization();
    const created = await consoleKey(a.org.slug, a.ana.id, { namespace_ids: [a.granted.id] });
    const before = await keyState(created.id);
    signInAs(b.admin.id);
    const forged = [
      // Org A's key id through org B's URL, and through org A's URL (where B's admin is not a member).
      await editApiKey(b.org.slug, { key_id: created.id, scopes: { team: "x" } }),
      await editApiKey(a.org.slug, { key_id: created.id, scopes: { team: "x" } }),
    ];
    expect(forged[0]).toMatchObject({ ok: false, error: expect.stringMatching(/not found/i) });
    expect(forged[1]).toEqual({ ok: false, error: "You are not a member of this organization." });
    // Org B's own key granted org A's namespace: not found either.
    const own = await consoleKey(b.org.slug, b.admin.id);
    const grant = await editApiKey(b.org.slug, { key_id: own.id, namespace_ids: [a.granted.id] });
    expect(grant).toMatchObject({ ok: false, error: expect.stringMatching(/not found/i) });
    expect(await keyState(created.id)).toEqual(before);
    expect((await keyState(own.id)).namespaceIds).toEqual([]);
  });

  test("a key with scopes cannot have manage: refused on the permissions field, nothing changes", async () => {
    const { org, owner } = await organization();
    const full = await consoleKey(org.slug, owner.id, {
      permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE", "NAMESPACE_MANAGE"],
    });
    const result = await editApiKey(org.slug, { key_id: full.id, scopes: { team: "sales" } });
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringContaining("A key with scopes cannot have NAMESPACE_MANAGE"),
      fields: { permissions: expect.stringContaining("A key with scopes cannot have NAMESPACE_MANAGE") },
    });
    expect((await keyState(full.id)).scopes).toEqual({});
    // Dropping manage in the same edit is fine.
    const both = await editApiKey(org.slug, {
      key_id: full.id,
      permissions: ["NAMESPACE_READ"],
      scopes: { team: "sales" },
    });
    expect(both).toMatchObject({ ok: true });
  });

  test("bad input gets field errors and changes nothing; a revoked key cannot be edited", async () => {
    const { org, owner } = await organization();
    const created = await consoleKey(org.slug, owner.id);
    const before = await keyState(created.id);
    for (const scopes of [{ team: "" }, { "": "sales" }, { team: 5 }, "team=sales", ["team", "sales"]]) {
      const result = await editApiKey(org.slug, { key_id: created.id, scopes });
      expect(result).toMatchObject({ ok: false, error: "Some fields need attention." });
      expect(Object.keys((result as { fields: object }).fields).join()).toMatch(/^scopes/);
    }
    const unknownField = await editApiKey(org.slug, { key_id: created.id, org_id: "org_other" });
    expect(unknownField).toMatchObject({ ok: false, error: "Some fields need attention." });
    const noPermission = await editApiKey(org.slug, { key_id: created.id, permissions: [] });
    expect(noPermission).toMatchObject({ ok: false, fields: { permissions: "choose at least one permission" } });
    expect(await keyState(created.id)).toEqual(before);

    const prisma = await db();
    await prisma.apiKey.update({ where: { id: created.id }, data: { revokedAt: new Date() } });
    const revoked = await editApiKey(org.slug, { key_id: created.id, scopes: { team: "sales" } });
    expect(revoked).toMatchObject({ ok: false, error: expect.stringContaining("revoked or expired") });
    expect(await keyState(created.id)).toEqual(before);
  });
});

test("scopes edited in the console apply to the key's very next recall, and the scopes page counts them", async () => {
  const { org, key, owner, ana, granted, ungranted } = await organization();
  await rememberAll(key, granted.id, [
    { content: "Sales closes the quarter on Friday.", scopes: { team: "sales" } },
    { content: "Support answers within a day.", scopes: { team: "support" } },
    { content: "Sales in Europe meets on Tuesday.", scopes: { team: "sales", region: "eu" } },
  ]);
  await rememberAll(key, ungranted.id, [{ content: "Hidden sales plan.", scopes: { team: "sales" } }]);
  const created = await consoleKey(org.slug, owner.id, { namespace_ids: [granted.id] });
  const recall = () => recallContents(created.secret, { namespace_id: granted.id, query: "sales support quarter" });
  expect(await recall()).toHaveLength(3);

  expect(await editApiKey(org.slug, { key_id: created.id, scopes: { team: "support" } })).toMatchObject({ ok: true });
  expect(await recall()).toEqual(["Support answers within a day."]);
  expect(await editApiKey(org.slug, { key_id: created.id, scopes: { team: "sales" } })).toMatchObject({ ok: true });
  expect((await recall()).sort()).toEqual(["Sales closes the quarter on Friday.", "Sales in Europe meets on Tuesday."]);

  // Owners see every namespace's counts; a member only those of the namespaces granted to them.
  const ownerView = await scopeUsage(memberPrincipal({ orgId: org.id, userId: owner.id, role: "owner" }));
  const sales = ownerView.find((pair) => pair.name === "team" && pair.value === "sales")!;
  expect(sales.memories).toBe(3);
  expect(sales.namespaces.map((ns) => [ns.id, ns.memories]).sort()).toEqual(
    [
      [granted.id, 2],
      [ungranted.id, 1],
    ].sort(),
  );
  expect(sales.keys.map((k) => k.id)).toEqual([created.id]);
  const memberView = await scopeUsage(memberPrincipal({ orgId: org.id, userId: ana.id, role: "member" }));
  expect(memberView.map((pair) => [pair.name, pair.value, pair.memories])).toEqual([
    ["region", "eu", 1],
    ["team", "sales", 2],
    ["team", "support", 1],
  ]);
  expect(JSON.stringify(memberView)).not.toContain(ungranted.id);
});

describe("the key dialog", () => {
  test("owners and admins create a namespace from it (audited); members are refused", async () => {
    const { org, admin, ana } = await organization();
    signInAs(admin.id);
    const created = await createNamespaceForKey(org.slug, { name: `from-dialog-${unique()}` });
    expect(created).toMatchObject({ ok: true, data: { id: expect.stringMatching(/^ns_/) } });
    const prisma = await db();
    const id = (created as { data: { id: string } }).data.id;
    expect(
      await prisma.auditLog.count({ where: { targetId: id, action: "namespace.create", actorId: admin.id } }),
    ).toBe(1);
    const duplicate = await createNamespaceForKey(org.slug, {
      name: (created as { data: { name: string } }).data.name,
    });
    expect(duplicate).toMatchObject({ ok: false });
    signInAs(ana.id);
    expect(await createNamespaceForKey(org.slug, { name: "mine" })).toMatchObject({
      ok: false,
      error: "This needs the owner or admin role; you are member.",
    });
  });

  test("a key made with the default preset (read and write) can remember into the chosen namespace", async () => {
    const { org, ana, granted } = await organization();
    const created = await consoleKey(org.slug, ana.id, { namespace_ids: [granted.id] });
    const remembered = await api("POST", "/remember", {
      key: created.secret,
      body: { namespace_id: granted.id, memories: [{ content: "Defaults work." }] },
    });
    expect(remembered.status).toBe(201);
  });
});

test("an invitation without a mail server says the link went to the server log", async () => {
  const { org, owner } = await organization();
  delete process.env.SMTP_URL;
  signInAs(owner.id);
  const email = `invitee-${unique()}@example.com`;
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  const result = await invite(org.slug, { email, role: "member" });
  log.mockRestore();
  expect(result).toEqual({ ok: true, data: { mailed: false } });
  expect(invitationMessage(email, false)).toContain("no email was sent");
  expect(invitationMessage(email, false)).toContain("server log");
  expect(invitationMessage(email, true)).toBe(`Invitation sent to ${email}.`);
});

test("the key actions refuse a slug no organization can have before reading anything", async () => {
  for (const action of [editApiKey, createNamespaceForKey]) {
    expect(await action("acme\u0000", { key_id: "key_x" })).toEqual({ ok: false, error: "Unknown organization." });
  }
  expect(getServerSession).not.toHaveBeenCalled();
});
