// GET /memories: a namespace's memories newest first, a page at a time by cursor, filtered by identity,
// scope pairs and metadata values, within the key's scopes; refusals in the envelope, never a 500.
import { describe, expect, test } from "vitest";
import { db } from "@/lib/db";
import { api } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";

interface Listed {
  id: string;
  content: string;
  identity_id: string | null;
  scopes: Record<string, string>;
  metadata: Record<string, unknown>;
  created_at: string;
}

async function remember(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/remember", { key, body });
  if (response.status !== 201) throw new Error(`remember failed: ${JSON.stringify(response.body)}`);
  return response.body.data as Listed;
}

/** Newest first: created_at, then id, both descending (what the API promises). */
function newestFirst(memories: Listed[]): string[] {
  return [...memories]
    .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1))
    .map((m) => m.id);
}

async function list(key: string, query: string) {
  return api("GET", `/memories?${query}`, { key });
}

/** Every page of a listing, following nextCursor: the ids in order and each page's pagination. */
async function walk(key: string, query: string) {
  const ids: string[] = [];
  const pages: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const response = await list(key, `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    ids.push(...response.body.data.map((m: Listed) => m.id));
    pages.push(response.body.pagination);
    cursor = response.body.pagination.nextCursor;
  } while (cursor && pages.length < 50);
  return { ids, pages };
}

async function tenantWithMemories() {
  const tenant = await createTenant("Lister");
  const ns = await createNamespace(tenant.key, { external_reference_id: `ref-${Math.random().toString(36).slice(2)}` });
  const memories: Listed[] = [];
  const people = ["alice", "bob", null];
  for (let i = 0; i < 7; i++) {
    memories.push(
      await remember(tenant.key, {
        namespace_id: ns.id,
        content: `Memory number ${i} about the garden.`,
        identity_id: people[i % 3] ?? undefined,
        scopes: i % 2 === 0 ? { team: "sales", region: i < 4 ? "eu" : "us" } : { team: "support" },
        metadata: { source: i < 3 ? "chat" : "email", n: i, tag: i % 2 === 0 ? "even" : "odd" },
      }),
    );
  }
  // A batch shares one created_at: the id decides among them.
  const batch = await api("POST", "/remember", {
    key: tenant.key,
    body: { namespace_id: ns.id, memories: [1, 2, 3].map((n) => ({ content: `Batch item ${n}.` })) },
  });
  memories.push(...(batch.body.data as Listed[]));
  return { ...tenant, ns, memories };
}

describe("GET /memories", () => {
  test("newest first; following nextCursor covers every memory exactly once, page after page", async () => {
    const { key, ns, memories } = await tenantWithMemories();
    const first = await list(key, `namespace_id=${ns.id}&page_size=4`);
    expect(first.status).toBe(200);
    expect(first.body.success).toBe(true);
    expect(first.body.data[0]).toEqual(
      expect.objectContaining({ namespace_id: ns.id, chunk_count: 1, updated_at: expect.any(String) }),
    );
    expect(first.body.pagination).toEqual({
      page: 1,
      pageSize: 4,
      total: 10,
      totalPages: 3,
      nextCursor: expect.any(String),
    });
    const { ids, pages } = await walk(key, `namespace_id=${ns.id}&page_size=4`);
    expect(ids).toEqual(newestFirst(memories));
    expect(new Set(ids).size).toBe(10);
    expect(pages.map((p) => [p.page, p.total, p.totalPages])).toEqual([
      [1, 10, 3],
      [2, 10, 3],
      [3, 10, 3],
    ]);
    expect(pages[2].nextCursor).toBeNull();
    // The default page size is 20: one page, no cursor.
    const all = await list(key, `external_reference_id=${ns.external_reference_id}`);
    expect(all.body.data.map((m: Listed) => m.id)).toEqual(newestFirst(memories));
    expect(all.body.pagination).toEqual({ page: 1, pageSize: 20, total: 10, totalPages: 1, nextCursor: null });
  });

  test("a memory written while walking appears on the first page, never shifting the later ones", async () => {
    const { key, ns, memories } = await tenantWithMemories();
    const first = await list(key, `namespace_id=${ns.id}&page_size=5`);
    const added = await remember(key, { namespace_id: ns.id, content: "A late arrival." });
    const second = await list(key, `namespace_id=${ns.id}&page_size=5&cursor=${first.body.pagination.nextCursor}`);
    const walked = [...first.body.data, ...second.body.data].map((m: Listed) => m.id);
    expect(walked).toEqual(newestFirst(memories));
    expect((await list(key, `namespace_id=${ns.id}&page_size=1`)).body.data[0].id).toBe(added.id);
  });

  test("a conversation's turns stored by one call are listed in their order, on every page size", async () => {
    const tenant = await createTenant("Conversation lister");
    const ns = await createNamespace(tenant.key);
    const before = await remember(tenant.key, { namespace_id: ns.id, content: "Stored before the chat." });
    // Eight turns share their created_at: ids alone would order them at random (1 chance in 40,320 of 0..7).
    const said = Array.from({ length: 8 }, (_, i) => `Turn ${i} of the chat about the orchard.`);
    const call = async (contents: string[]) => {
      const response = await api("POST", "/remember", {
        key: tenant.key,
        body: {
          namespace_id: ns.id,
          session_id: "orchard-chat",
          messages: contents.map((content, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content })),
        },
      });
      expect(response.status).toBe(201);
      return response.body.data as (Listed & { position: number; role: string })[];
    };
    const turns = await call(said);
    expect(turns.map((t) => t.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const afterwards = await remember(tenant.key, { namespace_id: ns.id, content: "Stored after the chat." });
    const expected = [afterwards.id, ...turns.map((t) => t.id), before.id];
    for (const size of [1, 3, 20]) {
      const { ids } = await walk(tenant.key, `namespace_id=${ns.id}&page_size=${size}`);
      expect(ids, `page_size=${size}`).toEqual(expected);
    }
    const page = await list(tenant.key, `namespace_id=${ns.id}`);
    expect(page.body.data.slice(1, 9).map((m: { position: number; role: string }) => [m.position, m.role])).toEqual(
      turns.map((t, i) => [i, i % 2 === 0 ? "user" : "assistant"]),
    );

    // A later call appends positions 8 and 9: newest first puts it on top, while session_id lists the
    // whole conversation from its first turn, page after page.
    const more = await call(["Turn 8: one more question.", "Turn 9: one more answer."]);
    expect(more.map((t) => t.position)).toEqual([8, 9]);
    const newest = await walk(tenant.key, `namespace_id=${ns.id}&page_size=4`);
    expect(newest.ids).toEqual([...more.map((t) => t.id), afterwards.id, ...turns.map((t) => t.id), before.id]);
    for (const size of [1, 4, 20]) {
      const { ids, pages } = await walk(tenant.key, `namespace_id=${ns.id}&session_id=orchard-chat&page_size=${size}`);
      expect(ids, `page_size=${size}`).toEqual([...turns, ...more].map((t) => t.id));
      expect(pages[0].total).toBe(10);
    }
    expect((await list(tenant.key, `namespace_id=${ns.id}&session_id=another-chat`)).body.data).toEqual([]);

    // A cursor of the conversation's listing is refused for the namespace's, and the other way round.
    const conversationCursor = (await list(tenant.key, `namespace_id=${ns.id}&session_id=orchard-chat&page_size=2`))
      .body.pagination.nextCursor;
    const namespaceCursor = (await list(tenant.key, `namespace_id=${ns.id}&page_size=2`)).body.pagination.nextCursor;
    for (const query of [
      `namespace_id=${ns.id}&cursor=${conversationCursor}`,
      `namespace_id=${ns.id}&session_id=orchard-chat&cursor=${namespaceCursor}`,
    ]) {
      const refused = await list(tenant.key, query);
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.details[0].field).toBe("query.cursor");
    }
    const bad = await list(tenant.key, `namespace_id=${ns.id}&session_id=`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe("query.session_id");
  });

  test("filters by identity, scope pairs and metadata values, several at once, all of them matching", async () => {
    const { key, ns, memories } = await tenantWithMemories();
    const cases: [string, (m: Listed) => boolean][] = [
      ["identity_id=alice", (m) => m.identity_id === "alice"],
      ["scope=team:sales", (m) => m.scopes.team === "sales"],
      ["scope=team:sales&scope=region:eu", (m) => m.scopes.team === "sales" && m.scopes.region === "eu"],
      ["metadata=source:chat", (m) => m.metadata.source === "chat"],
      ["metadata=source:email&metadata=tag:even", (m) => m.metadata.source === "email" && m.metadata.tag === "even"],
      [
        "identity_id=alice&scope=team:sales&metadata=source:email",
        (m) => m.identity_id === "alice" && m.scopes.team === "sales" && m.metadata.source === "email",
      ],
      // Query values are strings: the number 3 is not the string "3".
      ["metadata=n:3", () => false],
      ["scope=team:nobody", () => false],
    ];
    for (const [filters, matches] of cases) {
      const { ids, pages } = await walk(key, `namespace_id=${ns.id}&page_size=2&${filters}`);
      const expected = newestFirst(memories.filter(matches));
      expect(ids, filters).toEqual(expected);
      expect(pages[0].total, filters).toBe(expected.length);
    }
  });

  test("a scope or metadata key may be any name, Object's own included: remembered, and listed by it", async () => {
    const tenant = await createTenant("Lister");
    const ns = await createNamespace(tenant.key);
    const named = await remember(tenant.key, {
      namespace_id: ns.id,
      content: "A chair by the window.",
      scopes: { toString: "x" },
      metadata: { constructor: "chair" },
    });
    await remember(tenant.key, { namespace_id: ns.id, content: "A table.", scopes: { toString: "y" } });
    for (const filters of [
      "metadata=constructor:chair",
      "scope=toString:x",
      "scope=toString:x&metadata=constructor:chair",
    ]) {
      const listed = await list(tenant.key, `namespace_id=${ns.id}&${filters}`);
      expect(listed.status, filters).toBe(200);
      expect(
        listed.body.data.map((m: Listed) => m.id),
        filters,
      ).toEqual([named.id]);
    }
    // A key bound to such a scope is still held to it: it may not ask for another value, nor write one.
    const bound = await createKey(tenant.org.id, { scopes: { toString: "x" }, namespaceIds: [ns.id] });
    const contradicting = await list(bound.secret, `namespace_id=${ns.id}&scope=toString:y`);
    expect(contradicting.status).toBe(403);
    const written = await api("POST", "/remember", {
      key: bound.secret,
      body: { namespace_id: ns.id, content: "A lamp.", scopes: { toString: "y" } },
    });
    expect(written.status).toBe(403);
    expect((await list(bound.secret, `namespace_id=${ns.id}`)).body.data.map((m: Listed) => m.id)).toEqual([named.id]);
  });

  test("a key with scopes lists only memories inside them, and may not ask for others", async () => {
    const { org, key, ns, memories } = await tenantWithMemories();
    const scoped = await createKey(org.id, { scopes: { team: "sales" }, namespaceIds: [ns.id] });
    const listed = await walk(scoped.secret, `namespace_id=${ns.id}&page_size=3`);
    expect(listed.ids).toEqual(newestFirst(memories.filter((m) => m.scopes.team === "sales")));
    const narrowed = await list(scoped.secret, `namespace_id=${ns.id}&scope=region:us`);
    expect(narrowed.body.data.map((m: Listed) => m.id)).toEqual(
      newestFirst(memories.filter((m) => m.scopes.team === "sales" && m.scopes.region === "us")),
    );
    const contradicting = await list(scoped.secret, `namespace_id=${ns.id}&scope=team:support`);
    expect(contradicting.status).toBe(403);
    expect(contradicting.body.error.code).toBe("FORBIDDEN");
    // The unscoped key still sees everything.
    expect((await list(key, `namespace_id=${ns.id}`)).body.pagination.total).toBe(10);
  });

  test("another organization's namespace, or one not granted to the key, is 404", async () => {
    const { org, ns } = await tenantWithMemories();
    const other = await createTenant("Other");
    for (const query of [`namespace_id=${ns.id}`, `external_reference_id=${ns.external_reference_id}`]) {
      const response = await list(other.key, query);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, error: expect.objectContaining({ code: "NOT_FOUND" }) });
    }
    const ungranted = await createKey(org.id, { permissions: ["NAMESPACE_READ"] });
    expect((await list(ungranted.secret, `namespace_id=${ns.id}`)).status).toBe(404);
    expect((await list(other.key, "namespace_id=ns_doesNotExist")).status).toBe(404);
  });

  test("needs the read permission (403), and a key (401)", async () => {
    const { org, ns } = await tenantWithMemories();
    const writer = await createKey(org.id, { permissions: ["NAMESPACE_WRITE"], namespaceIds: [ns.id] });
    const refused = await list(writer.secret, `namespace_id=${ns.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("FORBIDDEN");
    expect((await api("GET", `/memories?namespace_id=${ns.id}`)).status).toBe(401);
  });

  test("bad input is a 400 in the envelope naming the parameter, never a 500", async () => {
    const { key, ns } = await tenantWithMemories();
    const other = await createNamespace(key);
    const first = await list(key, `namespace_id=${ns.id}&page_size=2`);
    const cursor: string = first.body.pagination.nextCursor;
    const [payload, mac] = cursor.split(".");
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), p: 9 }),
    ).toString("base64url");
    const bad: [string, string][] = [
      ["", "query"],
      [`namespace_id=${ns.id}&external_reference_id=x`, "query"],
      [`namespace_id=${ns.id}&cursor=garbage`, "query.cursor"],
      [`namespace_id=${ns.id}&cursor=${forgedPayload}.${mac}`, "query.cursor"],
      [`namespace_id=${ns.id}&cursor=${payload}.${mac.slice(1)}`, "query.cursor"],
      [`namespace_id=${ns.id}&cursor=${"a".repeat(2000)}`, "query.cursor"],
      [`namespace_id=${ns.id}&cursor=%00`, "query.cursor"],
      // A cursor of another listing: another namespace, or other filters.
      [`namespace_id=${other.id}&cursor=${cursor}`, "query.cursor"],
      [`namespace_id=${ns.id}&identity_id=alice&cursor=${cursor}`, "query.cursor"],
      [`namespace_id=${ns.id}&scope=team`, "query.scope.0"],
      [`namespace_id=${ns.id}&scope=:sales`, "query.scope.0"],
      [`namespace_id=${ns.id}&scope=team:`, "query.scope.0"],
      [`namespace_id=${ns.id}&scope=team:sales&scope=team:support`, "query.scope.1"],
      [`namespace_id=${ns.id}&scope=${encodeURIComponent("te\u200bam:x")}`, "query.scope.0"],
      [`namespace_id=${ns.id}&metadata=novalue`, "query.metadata.0"],
      [`namespace_id=${ns.id}&page_size=0`, "query.page_size"],
      [`namespace_id=${ns.id}&page_size=101`, "query.page_size"],
      [`namespace_id=${ns.id}&page_size=ten`, "query.page_size"],
      [`namespace_id=${ns.id}&page_size=2&page_size=3`, "query.page_size"],
      [`namespace_id=${ns.id}&page=2`, "query"],
      [`namespace_id=${ns.id}&identity_id=`, "query.identity_id"],
    ];
    for (const [query, field] of bad) {
      const response = await list(key, query);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
      expect(response.body.success).toBe(false);
      expect(response.body.error.code).toBe("BAD_REQUEST");
      expect(
        response.body.error.details.map((d: { field: string }) => d.field),
        query,
      ).toContain(field);
    }
    const repeated = await list(key, `namespace_id=${ns.id}&page_size=2&page_size=3`);
    expect(repeated.body.error.message).toContain("give page_size once");
    const borrowed = await list(key, `namespace_id=${other.id}&cursor=${cursor}`);
    expect(borrowed.body.error.message).toContain("another listing");
    // page_size bounds: 1 and 100 are fine.
    expect((await list(key, `namespace_id=${ns.id}&page_size=1`)).body.data).toHaveLength(1);
    expect((await list(key, `namespace_id=${ns.id}&page_size=100`)).body.data).toHaveLength(10);
    // A cursor stays valid when the same filters come in another order, or the page size changes.
    const filtered = await list(key, `namespace_id=${ns.id}&page_size=1&scope=team:sales&scope=region:eu`);
    const next = filtered.body.pagination.nextCursor;
    const reordered = await list(
      key,
      `namespace_id=${ns.id}&page_size=5&scope=region:eu&scope=team:sales&cursor=${next}`,
    );
    expect(reordered.status).toBe(200);
    expect(reordered.body.pagination.page).toBe(2);
  });

  test("a repeated parameter on an endpoint that takes it once is a clear 400", async () => {
    const { key } = await createTenant();
    const response = await api("GET", "/namespaces?page=1&page=2", { key });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ field: "query.page", message: "give page once (it was repeated)" }]);
    expect((await api("GET", "/namespaces?page=1", { key })).status).toBe(200);
  });

  test("each call is a list_memories row of the activity log, with namespace and identity", async () => {
    const { org, key, ns } = await tenantWithMemories();
    await list(key, `namespace_id=${ns.id}&identity_id=alice`);
    await list(key, `namespace_id=${ns.id}&cursor=nonsense`);
    const prisma = await db();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const rows = await prisma.activityLog.findMany({
      where: { orgId: org.id, operation: "list_memories" },
      orderBy: { createdAt: "asc" },
    });
    expect(rows.map((r) => [r.namespaceId, r.identityId, r.status])).toEqual([
      [ns.id, "alice", 200],
      [ns.id, null, 400],
    ]);
    expect(rows[0].details).toEqual({ memories: 3 });
  });
});
