// The audit log page (/{org}/audit): the domain list (filters, pagination, bounded by the organization),
// its query-string validation (a bad date is a message), and the page itself refusing members (a 404).
import { beforeEach, describe, expect, test, vi } from "vitest";

const getServerSession = vi.hoisted(() => vi.fn());
vi.mock("next-auth", () => ({ getServerSession }));
vi.mock("@/lib/console/auth", () => ({ authOptions: async () => ({}) }));

const { AuditLogQuery, listAuditLog, auditActions, SYSTEM_ACTOR } = await import("@/lib/audit/audit");
const { db } = await import("@/lib/db");
const { newId } = await import("@/lib/ids");
const { inviteMember } = await import("@/lib/orgs/members");
const { default: AuditLogPage } = await import("@/app/[org]/audit/page");
const { createNamespace, createTenant } = await import("../helpers/fixtures");

beforeEach(() => getServerSession.mockReset());

const unique = () => Math.random().toString(36).slice(2, 8);
const query = (q: Record<string, unknown> = {}) => AuditLogQuery.parse(q);

async function organization() {
  const { org, key, keyId } = await createTenant(`Audit ${unique()}`);
  const owner = await inviteMember(
    { orgId: org.id, email: `owner-${unique()}@example.com`, role: "owner" },
    SYSTEM_ACTOR,
  );
  const admin = await inviteMember(
    { orgId: org.id, email: `admin-${unique()}@example.com`, role: "admin" },
    SYSTEM_ACTOR,
  );
  const member = await inviteMember(
    { orgId: org.id, email: `mem-${unique()}@example.com`, role: "member" },
    SYSTEM_ACTOR,
  );
  const ns = await createNamespace(key, { name: `ns-${unique()}` });
  return { org, key, keyId, owner, admin, member, ns };
}

describe("listAuditLog", async () => {
  const a = await organization();
  const b = await organization();
  const prisma = await db();
  // Dated entries for the date filters: 2026-01-10 and 2026-01-20 (a user's change and a key's).
  await prisma.auditLog.createMany({
    data: [
      {
        id: newId("aud"),
        orgId: a.org.id,
        actorType: "user",
        actorId: a.admin.id,
        action: "member.role_change",
        targetType: "user",
        targetId: a.member.id,
        details: { from: "member", to: "admin" },
        createdAt: new Date("2026-01-10T23:59:59Z"),
      },
      {
        id: newId("aud"),
        orgId: a.org.id,
        actorType: "api_key",
        actorId: a.keyId,
        action: "grant.create",
        targetType: "namespace_grant",
        targetId: "grt_x",
        createdAt: new Date("2026-01-20T00:00:00Z"),
      },
    ],
  });

  test("newest first, who did what to which target, names resolved within the organization", async () => {
    const { entries, hasNext } = await listAuditLog(a.org.id, query());
    expect(hasNext).toBe(false);
    // Newest first (entries of one transaction share their time: their order among them is the id's).
    const times = entries.map((e) => e.createdAt.getTime());
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(entries.slice(-2).map((e) => e.action)).toEqual(["grant.create", "member.role_change"]);
    expect(entries.map((e) => e.action).sort()).toEqual([
      "api_key.create",
      "grant.create",
      "grant.create",
      "member.add",
      "member.add",
      "member.add",
      "member.role_change",
      "namespace.create",
      "organization.create",
    ]);
    const created = entries.find((e) => e.action === "namespace.create");
    expect(created).toMatchObject({
      actor: { type: "api_key", id: a.keyId },
      actorLabel: expect.stringContaining("admin key"),
      targetType: "namespace",
      targetId: a.ns.id,
      targetLabel: a.ns.name,
    });
    expect(entries.find((e) => e.action === "organization.create")).toMatchObject({
      actor: { type: "system" },
      actorLabel: null,
    });
    expect(entries.at(-1)).toMatchObject({
      actor: { type: "user", id: a.admin.id },
      actorLabel: a.admin.email,
      targetLabel: a.member.email,
      details: { from: "member", to: "admin" },
    });
    // Nothing of the other organization.
    const ids = new Set([b.keyId, b.ns.id, b.org.id]);
    for (const entry of entries)
      expect(ids.has(entry.targetId) || ids.has(String("id" in entry.actor && entry.actor.id))).toBe(false);
  });

  test("filters: actor, action, date range (the end day included)", async () => {
    const actions = async (q: Record<string, unknown>) =>
      (await listAuditLog(a.org.id, query(q))).entries.map((e) => e.action).sort();
    expect(await actions({ actor: "system" })).toEqual([
      "api_key.create",
      "member.add",
      "member.add",
      "member.add",
      "organization.create",
    ]);
    expect(await actions({ actor: `api_key:${a.keyId}` })).toEqual([
      "grant.create",
      "grant.create",
      "namespace.create",
    ]);
    expect(await actions({ actor: `user:${a.admin.id}` })).toEqual(["member.role_change"]);
    expect(await actions({ action: "member.add" })).toEqual(["member.add", "member.add", "member.add"]);
    expect(await actions({ from: "2026-01-10", to: "2026-01-10" })).toEqual(["member.role_change"]);
    expect(await actions({ from: "2026-01-11", to: "2026-01-20" })).toEqual(["grant.create"]);
    expect(await actions({ to: "2026-01-19" })).toEqual(["member.role_change"]);
    expect(await actions({ action: "grant.create", actor: "system" })).toEqual([]);
    // Another organization's key as the actor, or its actions: nothing here.
    expect(await actions({ actor: `api_key:${b.keyId}` })).toEqual([]);
    expect((await listAuditLog(b.org.id, query({ action: "member.role_change" }))).entries).toEqual([]);
    expect(await auditActions(a.org.id)).toEqual([
      "api_key.create",
      "grant.create",
      "member.add",
      "member.role_change",
      "namespace.create",
      "organization.create",
    ]);
  });

  test("pagination: pages of the size asked, no overlap, hasNext until the end", async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const result = await listAuditLog(a.org.id, query({ page }), 3);
      expect(result.entries.length).toBe(3);
      expect(result.hasNext).toBe(page < 3);
      seen.push(...result.entries.map((e) => e.id));
    }
    expect(new Set(seen).size).toBe(9);
    expect((await listAuditLog(a.org.id, query({ page: 4 }), 3)).entries).toEqual([]);
  });
});

describe("the audit page's query string", () => {
  test.each([
    [{ from: "2026-02-30" }, "from", "This date does not exist."],
    [{ to: "yesterday" }, "to", "Use a date like 2026-01-31."],
    [{ from: "2026-03-02", to: "2026-03-01" }, "to", "The start date is after the end date."],
    [{ actor: "user:x' OR 1=1" }, "actor", "Pick someone from the list."],
    [{ action: "DROP TABLE" }, "action", "Pick an action from the list."],
    [{ page: "0" }, "page", undefined],
    [{ page: "2.5" }, "page", undefined],
  ])("%j → a message on %s", (input, field, message) => {
    const parsed = AuditLogQuery.safeParse(input);
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues[0];
    expect(issue.path[0]).toBe(field);
    if (message) expect(issue.message).toBe(message);
  });

  test("valid filters parse; the page defaults to 1", () => {
    expect(AuditLogQuery.parse({ from: "2026-02-28", to: "2026-02-28", page: "2" })).toEqual({
      from: "2026-02-28",
      to: "2026-02-28",
      page: 2,
    });
    expect(AuditLogQuery.parse({})).toEqual({ page: 1 });
  });
});

describe("the audit page", async () => {
  const a = await organization();
  const signInAs = (userId: string) =>
    getServerSession.mockResolvedValue({ userId, sessionId: `ses_${unique()}`, method: "password" });
  const render = (searchParams: Record<string, string> = {}) =>
    AuditLogPage({ params: Promise.resolve({ org: a.org.slug }), searchParams: Promise.resolve(searchParams) });

  test("a member gets the 404 page", async () => {
    signInAs(a.member.id);
    await expect(render()).rejects.toMatchObject({ digest: expect.stringContaining("404") });
  });

  test("owners and admins get the log; a bad date is a message, not a failure", async () => {
    for (const user of [a.owner, a.admin]) {
      signInAs(user.id);
      expect(JSON.stringify(await render())).toContain("namespace.create");
    }
    const page = JSON.stringify(await render({ from: "2026-13-01" }));
    expect(page).toContain("Correct the filters above to see the log.");
    expect(page).toContain("This date does not exist.");
    expect(page).not.toContain('namespace.create","targetType');
  });
});
