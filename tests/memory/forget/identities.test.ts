// The console's identities: the list and an identity's activity bounded by what the person may see,
// "Forget this identity" (the same deletion as forget, audited, owners and admins only, org-bounded),
// and the activity log's retention.
import { beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "../../helpers/api";
import { createNamespace, createTenant } from "../../helpers/fixtures";
import { recallContents, rememberAll, termStatisticsConsistent } from "../../helpers/memory";
import { Prisma } from "@/lib/generated/prisma/client";

const getServerSession = vi.hoisted(() => vi.fn());
vi.mock("next-auth", () => ({ getServerSession }));
vi.mock("@/lib/console/auth", () => ({ authOptions: async () => ({}) }));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

const { db } = await import("@/lib/db");
const { memberPrincipal } = await import("@/lib/auth/principal");
const { SYSTEM_ACTOR } = await import("@/lib/audit/audit");
const { addMember } = await import("@/lib/orgs/members");
const { createUser } = await import("@/lib/orgs/users");
const { newId } = await import("@/lib/ids");
const { listIdentities, identityActivity, identitySummary, IdentitiesQuery, IdentityActivityQuery } =
  await import("@/lib/activity/identities");
const { identityMemories, forgetIdentity } = await import("@/lib/memory/forget/identities");
const { peopleOfIdentities } = await import("@/lib/activity/identity-people");
const { forgetIdentityAction } = await import("@/lib/console/actions/identities");
const { activityRetentionDays, pruneActivity } = await import("@/lib/activity/retention");

type Tenant = Awaited<ReturnType<typeof createTenant>>;
let a: Tenant;
let b: Tenant;
let nsA1: { id: string };
let nsA2: { id: string };
let nsB: { id: string };
const users = {} as Record<"owner" | "member" | "adminB", { id: string; email: string }>;
const memories = {} as Record<string, string[]>;

function actAs(user: { id: string }) {
  getServerSession.mockResolvedValue({ userId: user.id, sessionId: "ses_test", method: "password" });
}
const ownerOfA = () => memberPrincipal({ orgId: a.org.id, userId: users.owner.id, role: "owner" });
const memberOfA = () => memberPrincipal({ orgId: a.org.id, userId: users.member.id, role: "member" });

/** Remembers with the identity at the top level, so the activity row carries it (as an app's call would). */
async function remember(key: string, namespaceId: string, identityId: string, contents: string[]) {
  const response = await api("POST", "/remember", {
    key,
    body: { namespace_id: namespaceId, identity_id: identityId, memories: contents.map((content) => ({ content })) },
  });
  expect(response.status).toBe(201);
  return (response.body.data as { id: string }[]).map((memory) => memory.id);
}

async function memoryStatus(key: string, id: string) {
  return (await api("GET", `/memories/${id}`, { key })).status;
}

/** Summary rows must agree with the memories they count (the triggers keep them so). */
async function summariesConsistent() {
  const prisma = await db();
  const [row] = await prisma.$queryRaw<{ mismatches: number }[]>(Prisma.sql`SELECT count(*)::int AS mismatches FROM (
       SELECT namespace_id, identity_id, count(*)::int AS n FROM memories WHERE identity_id IS NOT NULL GROUP BY 1, 2
     ) m
     FULL JOIN (SELECT namespace_id, identity_id, memory_count AS n FROM identity_summaries WHERE memory_count > 0) s
       USING (namespace_id, identity_id)
     WHERE m.n IS DISTINCT FROM s.n`);
  return row.mismatches === 0;
}

beforeAll(async () => {
  a = await createTenant("Identities A");
  b = await createTenant("Identities B");
  for (const [role, email] of [
    ["owner", "owner-a@identities.test"],
    ["member", "member-a@identities.test"],
    ["adminB", "admin-b@identities.test"],
  ] as const) {
    users[role] = await createUser({ email });
  }
  await addMember({ orgId: a.org.id, userId: users.owner.id, role: "owner" }, SYSTEM_ACTOR);
  await addMember({ orgId: a.org.id, userId: users.member.id, role: "member" }, SYSTEM_ACTOR);
  await addMember({ orgId: b.org.id, userId: users.adminB.id, role: "admin" }, SYSTEM_ACTOR);
  nsA1 = await createNamespace(a.key, { name: "support" });
  nsA2 = await createNamespace(a.key, { name: "billing" });
  nsB = await createNamespace(b.key, { name: "support" });
  const grant = await api("POST", `/namespaces/${nsA1.id}/grants`, { key: a.key, body: { user_id: users.member.id } });
  expect(grant.status).toBe(201);

  memories.aliceA1 = await remember(a.key, nsA1.id, "alice", [
    "Alice prefers tea over coffee",
    "Alice lives in Lisbon",
  ]);
  memories.bob = await remember(a.key, nsA1.id, "bob", ["Bob plays the cello"]);
  memories.aliceA2 = await remember(a.key, nsA2.id, "alice", ["Alice pays yearly"]);
  // A batch whose items name their own identity: its activity row names none, its memories still count.
  const [carol] = await rememberAll(a.key, nsA2.id, [{ content: "Carol pays monthly", identity_id: "carol" }]);
  memories.carol = [carol.id];
  memories.aliceB = await remember(b.key, nsB.id, "alice", ["Alice of B likes jazz"]);
  await recallContents(a.key, { namespace_id: nsA1.id, query: "tea", identity_id: "alice" });
});

beforeEach(() => getServerSession.mockReset());

describe("the identities list", () => {
  test("owners see every identity of the organization with memories, operations and last activity", async () => {
    const list = await listIdentities(ownerOfA(), IdentitiesQuery.parse({}));
    const byId = new Map(list.items.map((item) => [item.identityId, item]));
    expect([...byId.keys()].sort()).toEqual(["alice", "bob", "carol"]);
    expect(byId.get("alice")).toMatchObject({ memories: 3 });
    // remember ×2 (one per namespace) and one recall carried alice's identity.
    expect(byId.get("alice")!.operationsLast7Days).toBe(3);
    expect(byId.get("alice")!.lastActivityAt).toBeInstanceOf(Date);
    expect(list.hasNext).toBe(false);
  });

  test("a member sees only identities of the namespaces granted to them, counted there", async () => {
    const list = await listIdentities(memberOfA(), IdentitiesQuery.parse({}));
    expect(list.items.map((item) => [item.identityId, item.memories]).sort()).toEqual([
      ["alice", 2],
      ["bob", 1],
    ]);
    expect(await identitySummary(memberOfA(), "carol")).toEqual({ memories: 0, namespaces: 0, lastActivityAt: null });
    const visible = await identityMemories(memberOfA(), "alice");
    expect(visible.total).toBe(2);
    expect(new Set(visible.memories.map((m) => m.namespaceId))).toEqual(new Set([nsA1.id]));
  });

  test("search by id prefix and pagination past 50", async () => {
    const prisma = await db();
    // Identities seen only through activity (the summary trigger picks them up).
    await prisma.activityLog.createMany({
      data: Array.from({ length: 55 }, (_, i) => ({
        id: newId("act"),
        orgId: a.org.id,
        namespaceId: nsA2.id,
        apiKeyId: a.keyId,
        identityId: `page-${String(i).padStart(3, "0")}`,
        operation: "recall",
        status: 200,
        latencyMs: 5,
        createdAt: new Date(Date.now() - i * 60_000),
      })),
    });
    const first = await listIdentities(ownerOfA(), IdentitiesQuery.parse({ q: "page-" }));
    expect(first.hasNext).toBe(true);
    expect(first.items).toHaveLength(50);
    expect(first.items[0]).toMatchObject({ identityId: "page-000", memories: 0, operationsLast7Days: 1 });
    const second = await listIdentities(ownerOfA(), IdentitiesQuery.parse({ q: "page-", page: "2" }));
    expect(second.items.map((item) => item.identityId)).toEqual([
      "page-050",
      "page-051",
      "page-052",
      "page-053",
      "page-054",
    ]);
    expect(second.hasNext).toBe(false);
    expect((await listIdentities(ownerOfA(), IdentitiesQuery.parse({ q: "page-", page: "9" }))).items).toEqual([]);
    // In id order, so the busy org's first page starts with alice, bob, carol.
    const everyone = await listIdentities(ownerOfA(), IdentitiesQuery.parse({}));
    expect(everyone.items.slice(0, 3).map((i) => i.identityId)).toEqual(["alice", "bob", "carol"]);
    expect(
      (await listIdentities(ownerOfA(), IdentitiesQuery.parse({ q: "ali" }))).items.map((i) => i.identityId),
    ).toEqual(["alice"]);
    // A prefix is compared as text, not as a pattern.
    expect((await listIdentities(ownerOfA(), IdentitiesQuery.parse({ q: "%" }))).items).toEqual([]);
    // The member is not granted billing (nsA2): none of these.
    expect((await listIdentities(memberOfA(), IdentitiesQuery.parse({ q: "page-" }))).items).toEqual([]);
  });

  test("bad queries are refused with a reason", () => {
    expect(IdentitiesQuery.safeParse({ q: "a\u0000" }).success).toBe(false);
    expect(IdentitiesQuery.safeParse({ page: "0" }).success).toBe(false);
    expect(IdentitiesQuery.safeParse({ page: "abc" }).success).toBe(false);
    expect(IdentityActivityQuery.safeParse({ operation: "drop" }).success).toBe(false);
    expect(IdentityActivityQuery.safeParse({ status: "teapot" }).success).toBe(false);
    expect(IdentityActivityQuery.safeParse({ status: "404" }).success).toBe(true);
  });
});

describe("an identity's activity", () => {
  beforeAll(async () => {
    const prisma = await db();
    await prisma.activityLog.createMany({
      data: [
        { namespaceId: nsA1.id, status: 429, operation: "recall" },
        { namespaceId: nsA2.id, status: 500, operation: "ask" },
      ].map((row, i) => ({
        id: newId("act"),
        orgId: a.org.id,
        apiKeyId: a.keyId,
        identityId: "alice",
        latencyMs: 7,
        createdAt: new Date(Date.now() - (i + 1) * 1000),
        ...row,
      })),
    });
  });

  const activity = (principal: ReturnType<typeof ownerOfA>, filters: Record<string, string> = {}) =>
    identityActivity(principal, "alice", IdentityActivityQuery.parse(filters));

  test("rows carry operation, namespace name, key name, status and latency, newest first", async () => {
    const { items } = await activity(ownerOfA());
    expect(items.map((row) => [row.operation, row.namespaceName, row.status])).toEqual(
      expect.arrayContaining([
        ["remember", "support", 201],
        ["remember", "billing", 201],
        ["recall", "support", 200],
        ["recall", "support", 429],
        ["ask", "billing", 500],
      ]),
    );
    expect(items[0].keyName).toBe("Identities A admin key");
    const times = items.map((row) => row.createdAt.getTime());
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  test("filters by operation and status (success, error, exact)", async () => {
    expect((await activity(ownerOfA(), { operation: "recall" })).items.map((r) => r.status).sort()).toEqual([200, 429]);
    expect((await activity(ownerOfA(), { status: "error" })).items.map((r) => r.status).sort()).toEqual([429, 500]);
    expect((await activity(ownerOfA(), { status: "success" })).items.every((r) => r.status < 400)).toBe(true);
    expect((await activity(ownerOfA(), { status: "429" })).items).toHaveLength(1);
    expect((await activity(ownerOfA(), { operation: "ask", status: "success" })).items).toHaveLength(0);
  });

  test("a member sees only the activity of namespaces granted to them", async () => {
    const { items } = await activity(memberOfA());
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((row) => row.namespaceId === nsA1.id)).toBe(true);
  });

  test("pagination: 50 a page, hasNext when more follow", async () => {
    const prisma = await db();
    await prisma.activityLog.createMany({
      data: Array.from({ length: 60 }, (_, i) => ({
        id: newId("act"),
        orgId: a.org.id,
        namespaceId: nsA1.id,
        apiKeyId: a.keyId,
        identityId: "busy",
        operation: "recall",
        status: 200,
        latencyMs: 3,
        createdAt: new Date(Date.now() - i * 1000),
      })),
    });
    const first = await identityActivity(ownerOfA(), "busy", IdentityActivityQuery.parse({}));
    expect(first.items).toHaveLength(50);
    expect(first.hasNext).toBe(true);
    const second = await identityActivity(ownerOfA(), "busy", IdentityActivityQuery.parse({ page: "2" }));
    expect(second.items).toHaveLength(10);
    expect(second.hasNext).toBe(false);
    expect(new Set([...first.items, ...second.items].map((row) => row.id)).size).toBe(60);
  });
});

describe("Forget this identity", () => {
  test("refused to a member (the action and the domain), nothing deleted", async () => {
    actAs(users.member);
    const result = await forgetIdentityAction(a.org.slug, { identity_id: "alice" });
    expect(result).toEqual({ ok: false, error: "This needs the owner or admin role; you are member." });
    await expect(forgetIdentity(memberOfA(), "alice")).rejects.toThrow(/manage access/);
    expect(await memoryStatus(a.key, memories.aliceA1[0])).toBe(200);
  });

  test("an admin of another organization: org A's slug is refused, B's slug reaches only B", async () => {
    actAs(users.adminB);
    expect(await forgetIdentityAction(a.org.slug, { identity_id: "alice" })).toEqual({
      ok: false,
      error: "You are not a member of this organization.",
    });
    expect(await forgetIdentityAction(b.org.slug, { identity_id: "bob" })).toEqual({
      ok: true,
      data: { deleted: 0, namespaces: 0 },
    });
    expect(await memoryStatus(a.key, memories.bob[0])).toBe(200);
    for (const id of [...memories.aliceA1, ...memories.aliceA2]) expect(await memoryStatus(a.key, id)).toBe(200);
  });

  test("bad input is refused with a reason and changes nothing", async () => {
    actAs(users.owner);
    for (const form of [
      { identity_id: "alice\u0000" },
      { identity_id: "" },
      { identity_id: "a".repeat(256) },
      { identity_id: "alice", namespace_id: nsA1.id },
      { identity_id: 42 },
      null,
    ]) {
      const result = await forgetIdentityAction(a.org.slug, form);
      expect(result.ok).toBe(false);
    }
    expect(await forgetIdentityAction("acme\u0000", { identity_id: "alice" })).toEqual({
      ok: false,
      error: "Unknown organization.",
    });
    for (const id of [...memories.aliceA1, ...memories.aliceA2]) expect(await memoryStatus(a.key, id)).toBe(200);
  });

  test("an owner forgets exactly that identity's memories in all namespaces; audited; recall stays right", async () => {
    actAs(users.owner);
    const result = await forgetIdentityAction(a.org.slug, { identity_id: "alice" });
    expect(result).toEqual({ ok: true, data: { deleted: 3, namespaces: 2 } });
    for (const id of [...memories.aliceA1, ...memories.aliceA2]) expect(await memoryStatus(a.key, id)).toBe(404);
    for (const id of [...memories.bob, ...memories.carol]) expect(await memoryStatus(a.key, id)).toBe(200);
    expect(await memoryStatus(b.key, memories.aliceB[0])).toBe(200);

    expect(await termStatisticsConsistent(nsA1.id)).toBe(true);
    expect(await termStatisticsConsistent(nsA2.id)).toBe(true);
    expect(await summariesConsistent()).toBe(true);
    expect(await recallContents(a.key, { namespace_id: nsA1.id, query: "cello" })).toEqual(["Bob plays the cello"]);
    // Nothing left shares a word with Alice's forgotten memories: none is found (the relevance floor); with
    // min_score 0, only what remains.
    expect(await recallContents(a.key, { namespace_id: nsA1.id, query: "Alice tea Lisbon" })).toEqual([]);
    expect(await recallContents(a.key, { namespace_id: nsA1.id, query: "Alice tea Lisbon", min_score: 0 })).toEqual([
      "Bob plays the cello",
    ]);

    const prisma = await db();
    const audit = await prisma.auditLog.findFirst({
      where: { orgId: a.org.id, action: "identity.forget", targetId: "alice" },
    });
    expect(audit).toMatchObject({ actorType: "user", actorId: users.owner.id, targetType: "identity" });
    expect(audit!.details).toMatchObject({
      deleted: 3,
      namespaces: expect.arrayContaining([
        { id: nsA1.id, name: "support", deleted: 2 },
        { id: nsA2.id, name: "billing", deleted: 1 },
      ]),
    });
    // Still listed (its activity stays until the retention period ends), with no memories.
    const list = await listIdentities(ownerOfA(), IdentitiesQuery.parse({ q: "alice" }));
    expect(list.items).toEqual([expect.objectContaining({ identityId: "alice", memories: 0 })]);
    expect(await forgetIdentityAction(a.org.slug, { identity_id: "alice" })).toEqual({
      ok: true,
      data: { deleted: 0, namespaces: 0 },
    });
  });
});

describe("which calls make an identity appear", () => {
  const listed = async (id: string) =>
    (await listIdentities(ownerOfA(), IdentitiesQuery.parse({ q: id }))).items.map((item) => item.identityId);

  test("a forget that matched nothing lists no identity; its call is still in the identity's activity", async () => {
    const forgotten = await api("POST", "/forget", {
      key: a.key,
      body: { namespace_id: nsA1.id, identity_id: "nobody-here" },
    });
    expect(forgotten.status).toBe(200);
    expect(forgotten.body.data).toMatchObject({ deleted: 0 });
    const everywhere = await api("POST", "/forget", {
      key: a.key,
      body: { identity_id: "nobody-here", all_namespaces: true },
    });
    expect(everywhere.status).toBe(200);
    expect(await listed("nobody-here")).toEqual([]);
    const activity = await identityActivity(ownerOfA(), "nobody-here", IdentityActivityQuery.parse({}));
    expect(activity.items.map((row) => [row.operation, row.status])).toContainEqual(["forget", 200]);
  });

  test("a forget that erased an identity known only from its memories leaves it unlisted", async () => {
    // A batch whose items name two identities: its activity row names neither, only their memories list them.
    const [dora] = await rememberAll(a.key, nsA2.id, [
      { content: "Dora collects stamps", identity_id: "dora" },
      { content: "Eve collects shells", identity_id: "eve" },
    ]);
    expect(await listed("dora")).toEqual(["dora"]);
    const forgotten = await api("POST", "/forget", {
      key: a.key,
      body: { namespace_id: nsA2.id, identity_id: "dora" },
    });
    expect(forgotten.body.data).toMatchObject({ deleted: 1 });
    expect(await memoryStatus(a.key, dora.id)).toBe(404);
    expect(await listed("dora")).toEqual([]);
    expect(await listed("eve")).toEqual(["eve"]);
    expect(await summariesConsistent()).toBe(true);
  });

  test("a refused call lists no identity; a successful one does, also before it has memories", async () => {
    const refused = await api("POST", "/recall", {
      key: a.key,
      body: { namespace_id: nsA1.id, query: "x", identity_id: "typo-person", top_k: 100_000 },
    });
    expect(refused.status).toBe(400);
    expect(await listed("typo-person")).toEqual([]);
    await recallContents(a.key, { namespace_id: nsA1.id, query: "tea", identity_id: "new-person" });
    expect(await listed("new-person")).toEqual(["new-person"]);
    // An identity already listed: a later forget that matched nothing moves its last activity.
    const before = (await identitySummary(ownerOfA(), "new-person")).lastActivityAt!;
    await new Promise((resume) => setTimeout(resume, 5));
    await api("POST", "/forget", { key: a.key, body: { namespace_id: nsA1.id, identity_id: "new-person" } });
    const after = (await identitySummary(ownerOfA(), "new-person")).lastActivityAt!;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
    expect(await listed("new-person")).toEqual(["new-person"]);
  });
});

describe("identities that are members", () => {
  test("a member's user id is named by their address; another organization's user is not", async () => {
    const people = await peopleOfIdentities(a.org.id, [users.owner.id, users.adminB.id, "alice", "usr_unknown"]);
    expect([...people.entries()]).toEqual([[users.owner.id, { email: users.owner.email, name: null }]]);
    expect((await peopleOfIdentities(b.org.id, [users.adminB.id])).get(users.adminB.id)?.email).toBe(
      users.adminB.email,
    );
    expect((await peopleOfIdentities(a.org.id, [])).size).toBe(0);
  });
});

describe("activity retention", () => {
  test("ACTIVITY_RETENTION_DAYS: 90 by default, a whole number of days, anything else stops the start", () => {
    expect(activityRetentionDays({})).toBe(90);
    expect(activityRetentionDays({ ACTIVITY_RETENTION_DAYS: " " })).toBe(90);
    expect(activityRetentionDays({ ACTIVITY_RETENTION_DAYS: "30" })).toBe(30);
    for (const bad of ["0", "-1", "1.5", "ninety", "36501", "1e3x"]) {
      expect(() => activityRetentionDays({ ACTIVITY_RETENTION_DAYS: bad })).toThrow(/ACTIVITY_RETENTION_DAYS/);
    }
  });

  test("pruning deletes only rows older than the setting, in batches, in every organization", async () => {
    const prisma = await db();
    const now = new Date();
    const day = 86_400_000;
    const row = (orgId: string, keyId: string, namespaceId: string, ageDays: number) => ({
      id: newId("act"),
      orgId,
      namespaceId,
      apiKeyId: keyId,
      identityId: "retention",
      operation: "recall",
      status: 200,
      latencyMs: 1,
      createdAt: new Date(now.getTime() - ageDays * day),
    });
    await prisma.activityLog.createMany({
      data: [
        ...[100, 95, 91, 91, 91].map((age) => row(a.org.id, a.keyId, nsA1.id, age)),
        ...[89, 10].map((age) => row(a.org.id, a.keyId, nsA1.id, age)),
        ...[120, 5].map((age) => row(b.org.id, b.keyId, nsB.id, age)),
      ],
    });
    const before = await prisma.activityLog.count();
    const old = await prisma.activityLog.count({ where: { createdAt: { lt: new Date(now.getTime() - 90 * day) } } });
    expect(old).toBe(6);
    expect(await pruneActivity({ retentionDays: 90, now, batchSize: 2 })).toBe(6);
    expect(await prisma.activityLog.count()).toBe(before - 6);
    const left = await prisma.activityLog.findMany({ where: { identityId: "retention" }, select: { createdAt: true } });
    expect(left.map((r) => Math.round((now.getTime() - r.createdAt.getTime()) / day)).sort((x, y) => x - y)).toEqual([
      5, 10, 89,
    ]);
    expect(await pruneActivity({ retentionDays: 90, now })).toBe(0);
  });
});
