// GET /events: what a key may read (its namespaces, within its scopes; content only when asked and readable now),
// in order, resumable from a cursor that never skips or repeats; filters; retention.
import { afterEach, describe, expect, test } from "vitest";
import { memberPrincipal } from "@/lib/auth/principal";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { pruneEvents } from "@/lib/events/prune-events";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";
import { addMember } from "@/lib/orgs/members";
import { createUser } from "@/lib/orgs/users";
import { api } from "../helpers/api";
import { settled } from "../helpers/settled";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";

interface FeedEvent {
  id: string;
  type: string;
  namespace_id: string | null;
  scopes: Record<string, string>;
  data: Record<string, unknown>;
  content?: string | null;
}
interface Feed {
  events: FeedEvent[];
  next_cursor: string;
  has_more: boolean;
}

async function feed(key: string, query = "") {
  await settled();
  const response = await api("GET", `/events${query ? `?${query}` : ""}`, { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as Feed;
}

afterEach(() => {
  delete process.env.EVENT_RETENTION_DAYS;
});

describe("GET /events", () => {
  test("a key reads its namespaces' events within its scopes; content only when asked and readable now", async () => {
    const tenant = await createTenant("Feed Access");
    const one = await createNamespace(tenant.key);
    const two = await createNamespace(tenant.key);
    const red = await createKey(tenant.org.id, {
      permissions: ["NAMESPACE_READ"],
      scopes: { team: "red" },
      namespaceIds: [one.id],
    });
    const none = await createKey(tenant.org.id, { permissions: ["NAMESPACE_READ"] });
    const write = async (namespaceId: string, content: string, scopes?: Record<string, string>) =>
      (await api("POST", "/remember", { key: tenant.key, body: { namespace_id: namespaceId, content, scopes } })).body
        .data.id as string;
    const redMemory = await write(one.id, "The red team meets on Mondays.", { team: "red" });
    await write(one.id, "The blue team meets on Fridays.", { team: "blue" });
    await write(one.id, "Everyone meets in June.");
    await write(two.id, "Red in the other namespace.", { team: "red" });

    const seen = await feed(red.secret, "include_content=true");
    expect(seen.events.map((event) => [event.type, event.data.memory_id, event.content])).toEqual([
      ["memory.created", redMemory, "The red team meets on Mondays."],
    ]);
    expect((await feed(red.secret)).events[0]).not.toHaveProperty("content");
    expect((await feed(none.secret)).events).toEqual([]);

    // Moved out of the key's scopes: its later events are not the key's to see, nor is its content now.
    await api("PATCH", `/memories/${redMemory}`, { key: tenant.key, body: { scopes: { team: "blue" } } });
    const after = await feed(red.secret, "include_content=true");
    expect(after.events.map((event) => [event.type, event.content])).toEqual([["memory.created", null]]);

    // The full key sees every namespace's events, never the organization's own (keys, connections).
    const all = await feed(tenant.key);
    expect(new Set(all.events.map((event) => event.namespace_id))).toEqual(new Set([one.id, two.id]));
    expect(all.events.some((event) => event.type.startsWith("api_key."))).toBe(false);

    // An owner in the console reads the organization's own events too.
    const user = await createUser({ email: `feed-owner-${Date.now()}@example.com` });
    await addMember({ orgId: tenant.org.id, userId: user.id, role: "owner" }, SYSTEM_ACTOR);
    const owner = memberPrincipal({ orgId: tenant.org.id, userId: user.id, role: "owner" });
    const ownerFeed = await runOperation(operations.listEvents, owner, { query: { limit: "500" } });
    expect(ownerFeed.data!.events.map((event) => event.type)).toContain("api_key.created");
  });

  test("reads in order from a cursor: nothing skipped, nothing twice; the cursor waits at the end", async () => {
    const { key } = await createTenant("Feed Cursor");
    const ns = await createNamespace(key);
    for (let i = 1; i <= 5; i++)
      await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: `N${i}.` } });
    const ids: string[] = [];
    let cursor = "";
    for (;;) {
      const page = await feed(key, `limit=2${cursor ? `&after=${encodeURIComponent(cursor)}` : ""}`);
      ids.push(...page.events.map((event) => event.id));
      cursor = page.next_cursor;
      if (!page.has_more) break;
    }
    expect(ids).toHaveLength(6); // namespace.created and five memory.created
    expect(new Set(ids).size).toBe(6);
    const end = await feed(key, `after=${encodeURIComponent(cursor)}`);
    expect(end).toMatchObject({ events: [], has_more: false, next_cursor: cursor });
    // The newest few, in order, and a cursor that follows from there.
    const latest = await feed(key, "latest=true&limit=2");
    expect(latest.events.map((event) => event.id)).toEqual(ids.slice(-2));
    expect((await feed(key, `after=${encodeURIComponent(latest.next_cursor)}`)).events).toEqual([]);
    const both = await api("GET", `/events?latest=true&after=${encodeURIComponent(cursor)}`, { key });
    expect(both.status).toBe(400);
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "Later." } });
    const later = await feed(key, `after=${encodeURIComponent(cursor)}`);
    expect(later.events.map((event) => event.type)).toEqual(["memory.created"]);
  });

  test("filters by namespace and type; refuses what it cannot read (404) and what it cannot parse (400)", async () => {
    const tenant = await createTenant("Feed Filters");
    const other = await createTenant("Feed Filters Other");
    const one = await createNamespace(tenant.key);
    const two = await createNamespace(tenant.key);
    const foreign = await createNamespace(other.key);
    const memory = await api("POST", "/remember", { key: tenant.key, body: { namespace_id: one.id, content: "x" } });
    await api("POST", "/forget", {
      key: tenant.key,
      body: { namespace_id: one.id, memory_ids: [memory.body.data.id] },
    });
    await api("POST", "/remember", { key: tenant.key, body: { namespace_id: two.id, content: "y" } });

    const onlyOne = await feed(tenant.key, `namespace_id=${one.id}&type=memory.created,memory.deleted`);
    expect(onlyOne.events.map((event) => event.type)).toEqual(["memory.created", "memory.deleted"]);
    expect(onlyOne.events[1].data).toMatchObject({ reason: "forget" });

    const limited = await createKey(tenant.org.id, { permissions: ["NAMESPACE_READ"], namespaceIds: [one.id] });
    for (const [key, namespaceId] of [
      [limited.secret, two.id],
      [tenant.key, foreign.id],
      [tenant.key, "ns_does_not_exist"],
    ]) {
      const refused = await api("GET", `/events?namespace_id=${namespaceId}`, { key });
      expect(refused.status, namespaceId).toBe(404);
    }
    for (const query of ["type=memory.made", "limit=0", "limit=501", "after=garbage", "include_content=yes", "x=1"]) {
      const refused = await api("GET", `/events?${query}`, { key: tenant.key });
      expect(refused.status, query).toBe(400);
      expect(refused.body.success).toBe(false);
    }
    // A cursor is bound to its organization: another's is refused, not followed.
    const foreignCursor = (await feed(other.key)).next_cursor;
    const carried = await api("GET", `/events?after=${encodeURIComponent(foreignCursor)}`, { key: tenant.key });
    expect(carried.status).toBe(400);
    expect(carried.body.error.details[0].field).toBe("query.after");
    // A key without NAMESPACE_READ may not read the feed.
    const writer = await createKey(tenant.org.id, { permissions: ["NAMESPACE_WRITE"], namespaceIds: [one.id] });
    expect((await api("GET", "/events", { key: writer.secret })).status).toBe(403);
  });

  test("events older than EVENT_RETENTION_DAYS are deleted", async () => {
    const { key, org } = await createTenant("Feed Retention");
    const ns = await createNamespace(key);
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "Old news." } });
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "Fresh news." } });
    const prisma = await db();
    const [oldest] = await prisma.event.findMany({
      where: { orgId: org.id, namespaceId: ns.id },
      orderBy: { seq: "asc" },
      take: 1,
    });
    expect(oldest.type).toBe("namespace.created");
    await prisma.event.update({ where: { id: oldest.id }, data: { createdAt: new Date(Date.now() - 3 * 86_400_000) } });
    process.env.EVENT_RETENTION_DAYS = "2";
    expect(await pruneEvents()).toBeGreaterThanOrEqual(1);
    const left = await feed(key);
    expect(left.events.map((event) => event.id)).not.toContain(oldest.id);
    expect(left.events.map((event) => event.type)).toEqual(["memory.created", "memory.created"]);
  });
});
