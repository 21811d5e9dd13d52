// The memory explorer's server action and data, called directly as a browser could (any arguments): a
// memory id of another organization, of another namespace, or of a namespace not granted to a member is
// "not found" and nothing is deleted; an allowed deletion removes the memory and is audited.
import { beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";

const getServerSession = vi.hoisted(() => vi.fn());
vi.mock("next-auth", () => ({ getServerSession }));
vi.mock("@/lib/console/auth", () => ({ authOptions: async () => ({}) }));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

const { deleteMemory, updateMemoryAction } = await import("@/lib/console/actions/memories");
const { db } = await import("@/lib/db");
const { SYSTEM_ACTOR } = await import("@/lib/audit/audit");
const { createUser } = await import("@/lib/orgs/users");
const { addMember } = await import("@/lib/orgs/members");
const { memberPrincipal } = await import("@/lib/auth/principal");
const { getMemoryWithChunks, listMemories } = await import("@/lib/memory/read/list");
const { operations } = await import("@/lib/operations/catalogue");
const { runOperation } = await import("@/lib/operations/run");
const { explorerFilters, listingInput } = await import("@/lib/console/memory-filters");

type Role = "owner" | "admin" | "member";

function listingQuery(namespaceId: string) {
  const input = listingInput(namespaceId, explorerFilters({}));
  if (!input.ok) throw new Error(input.messages.join("; "));
  return input.parsed;
}

async function person(orgId: string, role: Role) {
  const user = await createUser({ email: `${role}-${Math.random().toString(36).slice(2)}@x.test` });
  await addMember({ orgId, userId: user.id, role }, SYSTEM_ACTOR);
  return user;
}

function signedInAs(userId: string) {
  getServerSession.mockResolvedValue({ userId, sessionId: "ses_test", method: "password" });
}

async function remember(key: string, namespaceId: string, content: string, extra: Record<string, unknown> = {}) {
  const response = await api("POST", "/remember", { key, body: { namespace_id: namespaceId, content, ...extra } });
  if (response.status !== 201) throw new Error(JSON.stringify(response.body));
  return response.body.data as { id: string };
}

async function exists(memoryId: string) {
  return (await (await db()).memory.count({ where: { id: memoryId } })) === 1;
}

let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let nsA: { id: string };
let otherNsA: { id: string };
let nsB: { id: string };
let adminA: { id: string };
let memberA: { id: string };
let grantedMemberA: { id: string };
let adminB: { id: string };

beforeAll(async () => {
  a = await createTenant("Acme Explorer");
  b = await createTenant("Beta Explorer");
  nsA = await createNamespace(a.key);
  otherNsA = await createNamespace(a.key);
  nsB = await createNamespace(b.key);
  adminA = await person(a.org.id, "admin");
  memberA = await person(a.org.id, "member");
  grantedMemberA = await person(a.org.id, "member");
  adminB = await person(b.org.id, "admin");
  const grant = await api("POST", `/namespaces/${nsA.id}/grants`, { key: a.key, body: { user_id: grantedMemberA.id } });
  expect(grant.status).toBe(201);
});
beforeEach(() => getServerSession.mockReset());

describe("deleting a memory from the explorer", () => {
  test("an admin deletes it: gone from the API, its chunks too, audited as memory.delete by the user", async () => {
    const memory = await remember(a.key, nsA.id, "The office plant is watered on Mondays.", { identity_id: "u1" });
    signedInAs(adminA.id);
    const result = await deleteMemory(a.org.slug, { namespace_id: nsA.id, memory_id: memory.id });
    expect(result).toEqual({ ok: true, data: { id: memory.id, deleted: true } });
    expect((await api("GET", `/memories/${memory.id}`, { key: a.key })).status).toBe(404);
    const prisma = await db();
    expect(await prisma.memoryChunk.count({ where: { memoryId: memory.id } })).toBe(0);
    const audit = await prisma.auditLog.findMany({ where: { orgId: a.org.id, action: "memory.delete" } });
    expect(audit.map((row) => [row.actorType, row.actorId, row.targetType, row.targetId, row.details])).toEqual([
      ["user", adminA.id, "memory", memory.id, { namespace_id: nsA.id, erasure_id: expect.stringMatching(/^era_/) }],
    ]);
  });

  test("a member with a grant may delete; one without gets not found and nothing changes", async () => {
    const memory = await remember(a.key, nsA.id, "The printer code is 4411.");
    signedInAs(memberA.id);
    const refused = await deleteMemory(a.org.slug, { namespace_id: nsA.id, memory_id: memory.id });
    expect(refused).toEqual({ ok: false, error: expect.stringMatching(/not found/) });
    expect(await exists(memory.id)).toBe(true);
    signedInAs(grantedMemberA.id);
    expect(await deleteMemory(a.org.slug, { namespace_id: nsA.id, memory_id: memory.id })).toMatchObject({ ok: true });
    expect(await exists(memory.id)).toBe(false);
  });

  test("forged ids: another organization's memory or namespace, another namespace's memory: not found", async () => {
    const memoryA = await remember(a.key, nsA.id, "Acme's quarterly goals are in the wiki.");
    const memoryB = await remember(b.key, nsB.id, "Beta's launch date is a secret.");
    const attempts: [{ id: string }, string, Record<string, unknown>][] = [
      [adminA, a.org.slug, { namespace_id: nsB.id, memory_id: memoryB.id }],
      [adminA, a.org.slug, { namespace_id: nsA.id, memory_id: memoryB.id }],
      [adminA, a.org.slug, { namespace_id: otherNsA.id, memory_id: memoryA.id }],
      [adminB, b.org.slug, { namespace_id: nsA.id, memory_id: memoryA.id }],
      [adminB, b.org.slug, { namespace_id: nsB.id, memory_id: memoryA.id }],
    ];
    for (const [user, slug, form] of attempts) {
      signedInAs(user.id);
      const result = await deleteMemory(slug, form);
      expect(result, JSON.stringify(form)).toEqual({ ok: false, error: expect.stringMatching(/not found/) });
    }
    // Another organization's slug: not a member there.
    signedInAs(adminA.id);
    expect(await deleteMemory(b.org.slug, { namespace_id: nsB.id, memory_id: memoryB.id })).toEqual({
      ok: false,
      error: "You are not a member of this organization.",
    });
    expect(await exists(memoryA.id)).toBe(true);
    expect(await exists(memoryB.id)).toBe(true);
    const prisma = await db();
    const audits = await prisma.auditLog.count({
      where: { action: "memory.delete", targetId: { in: [memoryA.id, memoryB.id] } },
    });
    expect(audits).toBe(0);
  });

  test("bad input is refused with the fields named, nothing read or deleted", async () => {
    const memory = await remember(a.key, nsA.id, "Lunch is at noon.");
    signedInAs(adminA.id);
    for (const form of [
      {},
      { namespace_id: nsA.id },
      { namespace_id: nsA.id, memory_id: "" },
      { namespace_id: nsA.id, memory_id: "mem\u0000x" },
      { namespace_id: nsA.id, memory_id: [memory.id] },
      { namespace_id: nsA.id, memory_id: memory.id, all: true },
      null,
    ]) {
      const result = await deleteMemory(a.org.slug, form);
      expect(result, JSON.stringify(form)).toMatchObject({ ok: false, error: "Some fields need attention." });
    }
    expect(await exists(memory.id)).toBe(true);
    getServerSession.mockResolvedValue(null);
    expect(await deleteMemory(a.org.slug, { namespace_id: nsA.id, memory_id: memory.id })).toMatchObject({
      ok: false,
    });
    expect(await exists(memory.id)).toBe(true);
  });
});

describe("the explorer's data", () => {
  test("a member without a grant reads nothing: the listing and the detail are not found", async () => {
    const memory = await remember(a.key, nsA.id, "Only for granted eyes.");
    const stranger = memberPrincipal({ orgId: a.org.id, userId: memberA.id, role: "member" });
    const query = { namespace_id: nsA.id };
    await expect(runOperation(operations.listMemories, stranger, { query })).rejects.toThrow(/not found/);
    await expect(getMemoryWithChunks(stranger, nsA.id, memory.id)).rejects.toThrow(/not found/);
    const outsider = memberPrincipal({ orgId: b.org.id, userId: adminB.id, role: "admin" });
    await expect(getMemoryWithChunks(outsider, nsA.id, memory.id)).rejects.toThrow(/not found/);
    await expect(getMemoryWithChunks(outsider, nsB.id, memory.id)).rejects.toThrow(/not found/);
  });

  test("the console lists exactly what the API lists for the same filters, and reads a memory's chunks", async () => {
    const ns = await createNamespace(a.key);
    const long = Array.from({ length: 120 }, (_, i) => `Sentence ${i} tells a little more about the garden.`).join(" ");
    const stored = [
      await remember(a.key, ns.id, "Short one.", { identity_id: "ann", scopes: { team: "x" } }),
      await remember(a.key, ns.id, long, { identity_id: "ann", metadata: { source: "chat" } }),
      await remember(a.key, ns.id, "Another.", { identity_id: "bo", metadata: { source: "chat" } }),
    ];
    const admin = memberPrincipal({ orgId: a.org.id, userId: adminA.id, role: "admin" });
    const cases = [
      { identity: "ann", scopes: "", metadata: "" },
      { identity: "", scopes: "team=x", metadata: "" },
      { identity: "", scopes: "", metadata: "source=chat" },
      { identity: "ann", scopes: "", metadata: "source = chat" },
    ];
    for (const filters of cases) {
      const input = listingInput(ns.id, explorerFilters(filters));
      if (!input.ok) throw new Error(input.messages.join("; "));
      // As the explorer page reads it: the API's listing function, its count capped.
      const listed = await listMemories(admin, input.parsed, {}, { countUpTo: 1_000 });
      const consoleIds = listed.items.map((m) => m.id);
      const params = new URLSearchParams({ namespace_id: ns.id });
      if (filters.identity) params.append("identity_id", filters.identity);
      if (filters.scopes) params.append("scope", filters.scopes.replace("=", ":"));
      if (filters.metadata) params.append("metadata", filters.metadata.replace(/\s*=\s*/, ":"));
      const apiIds = (await api("GET", `/memories?${params}`, { key: a.key })).body.data.map(
        (m: { id: string }) => m.id,
      );
      expect(consoleIds, JSON.stringify(filters)).toEqual(apiIds);
      expect(consoleIds.length).toBeGreaterThan(0);
    }
    const bounded = await listMemories(admin, listingQuery(ns.id), {}, { countUpTo: 2 });
    expect([bounded.total, bounded.totalIsAtLeast, bounded.items.length]).toEqual([2, true, 3]);
    const exact = await listMemories(admin, listingQuery(ns.id), {}, { countUpTo: 3 });
    expect([exact.total, exact.totalIsAtLeast]).toEqual([3, false]);
    const { memory, chunks } = await getMemoryWithChunks(admin, ns.id, stored[1].id);
    expect(memory.content).toBe(long);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.position)).toEqual(chunks.map((_, i) => i));
    expect(chunks.length).toBe(memory.chunkCount);
  });

  test("bad filters become messages for the page, not errors", () => {
    const messages = (filters: Record<string, string>) => {
      const input = listingInput("ns_x", explorerFilters(filters));
      return input.ok ? [] : input.messages;
    };
    expect(messages({ scopes: "team" })).toEqual(['Scopes: "team" is not of the form key=value']);
    expect(messages({ metadata: "=x" })).toEqual(['Metadata: "=x" is not of the form key=value']);
    expect(messages({ scopes: "team=a, team=b" })[0]).toMatch(/^Scopes: scope team is given twice/);
    expect(messages({ scopes: "team=" })[0]).toMatch(/^Scopes: value: must not be empty/);
    expect(messages({ identity: "x".repeat(300) })[0]).toMatch(/^Identity: /);
    expect(messages({ identity: "ann", scopes: "team=a, region=eu", metadata: "k=v" })).toEqual([]);
  });
});

describe("editing a memory from its page", () => {
  async function stored(memoryId: string) {
    const response = await api("GET", `/memories/${memoryId}`, { key: a.key });
    return response.body.data as { version: number; content: string; metadata: unknown; scopes: unknown };
  }

  test("an admin's edit is PATCH's: a new version by the user, the old one in the history, audited", async () => {
    const memory = await remember(a.key, nsA.id, "The team lunch is on Fridays.", { identity_id: "u1" });
    signedInAs(adminA.id);
    const result = await updateMemoryAction(a.org.slug, {
      namespace_id: nsA.id,
      memory_id: memory.id,
      content: "The team lunch moved to Thursdays.",
      metadata: '{"source": "console"}',
      scopes: "team=ops, region=eu",
      identity_id: "",
      occurred_at: "2026-05-07",
    });
    expect(result).toEqual({ ok: true, data: { id: memory.id, version: 2 } });
    const now = (await api("GET", `/memories/${memory.id}`, { key: a.key })).body.data;
    expect([now.content, now.metadata, now.scopes, now.identity_id, now.occurred_at]).toEqual([
      "The team lunch moved to Thursdays.",
      { source: "console" },
      { team: "ops", region: "eu" },
      null,
      "2026-05-07T00:00:00.000Z",
    ]);
    const history = (await api("GET", `/memories/${memory.id}/history`, { key: a.key })).body.data;
    expect(history.map((v: { version: number; content: string }) => [v.version, v.content])).toEqual([
      [2, "The team lunch moved to Thursdays."],
      [1, "The team lunch is on Fridays."],
    ]);
    expect(history[0].changed_by).toMatchObject({ kind: "user", id: adminA.id });
    expect(history[0].changed_fields).toEqual(
      expect.arrayContaining(["content", "metadata", "scopes", "identity_id", "occurred_at"]),
    );
    const audit = await (await db()).auditLog.findMany({ where: { action: "memory.update", targetId: memory.id } });
    expect(audit.map((row) => [row.actorType, row.actorId, row.details])).toEqual([
      ["user", adminA.id, { namespace_id: nsA.id, version: 2 }],
    ]);
    // The same values again change nothing: no version, no audit row.
    expect(
      await updateMemoryAction(a.org.slug, { namespace_id: nsA.id, memory_id: memory.id, content: now.content }),
    ).toEqual({ ok: true, data: { id: memory.id, version: 2 } });
    expect(await (await db()).auditLog.count({ where: { action: "memory.update", targetId: memory.id } })).toBe(1);
  });

  test("bad values are refused on their field by the API's validation, and nothing changes", async () => {
    const memory = await remember(a.key, nsA.id, "The badge office opens at nine.");
    signedInAs(adminA.id);
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ metadata: "not json" }, "metadata", /JSON object/],
      [{ metadata: "[1, 2]" }, "metadata", /expected record/],
      [{ metadata: '{"nested": {"a": 1}}' }, "metadata", /^nested: metadata values must be strings/],
      [{ scopes: "team" }, "scopes", /not of the form key=value/],
      [{ scopes: "team=a, team=b" }, "scopes", /given twice/],
      [{ content: "   " }, "content", /must not be empty/],
      [{ content: "\u200b\u2060\u00ad\u200d\u180e" }, "content", /only white space and invisible characters/],
      [{ occurred_at: "yesterday" }, "occurred_at", /ISO 8601/],
      [{ expires_at: "2001-01-01T00:00:00Z" }, "expires_at", /in the future/],
      [{ identity_id: "x".repeat(300) }, "identity_id", /at most 255 characters/],
    ];
    for (const [fields, field, message] of cases) {
      const result = await updateMemoryAction(a.org.slug, { namespace_id: nsA.id, memory_id: memory.id, ...fields });
      expect(result.ok, JSON.stringify(fields)).toBe(false);
      if (result.ok) continue;
      expect(result.fields?.[field] ?? JSON.stringify(result), JSON.stringify(fields)).toMatch(message);
      expect(Object.keys(result.fields ?? {}), JSON.stringify(fields)).toEqual([field]);
    }
    expect(await stored(memory.id)).toMatchObject({ version: 1, content: "The badge office opens at nine." });
  });

  test("forged ids and members without a grant: not found, nothing changes", async () => {
    const memoryA = await remember(a.key, nsA.id, "Acme's wifi password rotates monthly.");
    const memoryB = await remember(b.key, nsB.id, "Beta's office moves in spring.");
    const attempts: [{ id: string }, string, Record<string, unknown>][] = [
      [adminA, a.org.slug, { namespace_id: nsB.id, memory_id: memoryB.id }],
      [adminA, a.org.slug, { namespace_id: nsA.id, memory_id: memoryB.id }],
      [adminA, a.org.slug, { namespace_id: otherNsA.id, memory_id: memoryA.id }],
      [adminB, b.org.slug, { namespace_id: nsB.id, memory_id: memoryA.id }],
      [memberA, a.org.slug, { namespace_id: nsA.id, memory_id: memoryA.id }],
    ];
    for (const [user, slug, ids] of attempts) {
      signedInAs(user.id);
      const result = await updateMemoryAction(slug, { ...ids, content: "Overwritten." });
      expect(result, JSON.stringify(ids)).toEqual({ ok: false, error: expect.stringMatching(/not found/) });
    }
    expect(await stored(memoryA.id)).toMatchObject({ version: 1, content: "Acme's wifi password rotates monthly." });
    expect((await api("GET", `/memories/${memoryB.id}`, { key: b.key })).body.data.version).toBe(1);
    // A member with a grant may edit, as the API lets a member's key.
    signedInAs(grantedMemberA.id);
    expect(
      await updateMemoryAction(a.org.slug, { namespace_id: nsA.id, memory_id: memoryA.id, content: "Rotates weekly." }),
    ).toEqual({ ok: true, data: { id: memoryA.id, version: 2 } });
    // Unknown fields and oversized text are refused before anything is read.
    for (const form of [
      { namespace_id: nsA.id, memory_id: memoryA.id, version: 7 },
      { namespace_id: nsA.id, memory_id: memoryA.id, content: "x".repeat(100_001) },
      { namespace_id: nsA.id, memory_id: memoryA.id, metadata: { a: 1 } },
    ]) {
      expect(await updateMemoryAction(a.org.slug, form)).toMatchObject({
        ok: false,
        error: "Some fields need attention.",
      });
    }
    expect(await stored(memoryA.id)).toMatchObject({ version: 2, content: "Rotates weekly." });
  });
});
