import { describe, expect, test, vi } from "vitest";
import { db } from "@/lib/db";
import { embedder } from "@/lib/memory/embeddings";
import { LIMITS } from "@/lib/memory/common/schemas";
import { api } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";
import { recallContents, rememberAll, storedCounts, termStatisticsConsistent } from "../../helpers/memory";
import { Prisma } from "@/lib/generated/prisma/client";

const PETS = "I adopted a golden retriever named Max last spring.";
const RUST = "My favourite programming language is Rust because of its borrow checker.";
const MEETING = "The quarterly sales meeting is on Thursday at 10am in room 4B.";
const TRIP = "Next month I am flying to Lisbon for a two-week holiday with my sister.";

async function tenantWithNamespace() {
  const tenant = await createTenant();
  const ns = await createNamespace(tenant.key, { external_reference_id: `ref-${Math.random().toString(36).slice(2)}` });
  return { ...tenant, ns };
}

describe("remember", () => {
  test("stores one memory and returns it: 201, with the spec's fields", async () => {
    const { key, ns } = await tenantWithNamespace();
    const response = await api("POST", "/remember", {
      key,
      body: { namespace_id: ns.id, content: PETS, metadata: { source: "chat", turn: 3 }, identity_id: "user-42" },
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      namespace_id: ns.id,
      content: PETS,
      metadata: { source: "chat", turn: 3 },
      scopes: {},
      identity_id: "user-42",
      chunk_count: 1,
    });
    expect(response.body.data.id).toMatch(/^mem_/);
    const fetched = await api("GET", `/memories/${response.body.data.id}`, { key });
    expect(fetched.status).toBe(200);
    // `deduplicated` is remember's news about this request, not a property of the memory.
    expect(response.body.data.deduplicated).toBe(false);
    expect(fetched.body.data).toEqual({ ...response.body.data, deduplicated: undefined });
    expect(fetched.body.data).toMatchObject({
      session_id: null,
      position: null,
      role: null,
      occurred_at: response.body.data.created_at,
      expires_at: null,
      version: 1,
    });
  });

  test("read-your-writes: as soon as remember returns, recall finds the memory", async () => {
    const { key, ns } = await tenantWithNamespace();
    await rememberAll(key, ns.id, [{ content: RUST }, { content: MEETING }]);
    const facts = [
      ["The spare house key is hidden under the blue flowerpot.", "where is the spare key hidden"],
      ["Grandma's birthday dinner is booked at the harbour restaurant.", "grandma birthday dinner restaurant"],
      ["The car insurance renews on the ninth of March.", "when does the car insurance renew"],
    ];
    for (const [fact, query] of facts) {
      expect((await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: fact } })).status).toBe(201);
      expect((await recallContents(key, { namespace_id: ns.id, query, top_k: 1 }))[0]).toBe(fact);
    }
  });

  test("a batch is stored whole, in order, with top-level fields as defaults", async () => {
    const { key, ns } = await tenantWithNamespace();
    const response = await api("POST", "/remember", {
      key,
      body: {
        namespace_id: ns.id,
        identity_id: "alice",
        metadata: { batch: "b1" },
        memories: [{ content: PETS }, { content: RUST, identity_id: "bob", metadata: { batch: "b2" } }],
      },
    });
    expect(response.status).toBe(201);
    expect(
      response.body.data.map((m: { content: string; identity_id: string; metadata: object }) => [
        m.content,
        m.identity_id,
        m.metadata,
      ]),
    ).toEqual([
      [PETS, "alice", { batch: "b1" }],
      [RUST, "bob", { batch: "b2" }],
    ]);
    expect((await storedCounts(ns.id)).memories).toBe(2);
  });

  test("a batch with one bad item is rejected whole, naming the item's index", async () => {
    const { key, ns } = await tenantWithNamespace();
    const response = await api("POST", "/remember", {
      key,
      body: {
        namespace_id: ns.id,
        memories: [
          { content: PETS },
          { content: RUST },
          { content: "   " },
          { content: MEETING, metadata: { nested: { no: 1 } } },
        ],
      },
    });
    expect(response.status).toBe(400);
    const fields = response.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toContain("body.memories.2.content");
    expect(fields.some((f: string) => f.startsWith("body.memories.3.metadata"))).toBe(true);
    expect((await storedCounts(ns.id)).memories).toBe(0);
  });

  test("long content is chunked on sentence boundaries, and a fact deep inside is found", async () => {
    const { key, ns } = await tenantWithNamespace();
    const filler = Array.from(
      { length: 80 },
      (_, i) => `Paragraph ${i} of the onboarding handbook covers routine office matters.`,
    );
    filler.splice(47, 0, "The emergency generator is tested every first Monday at 7am by facilities.");
    const [memory] = await rememberAll(key, ns.id, [{ content: filler.join(" ") }, { content: MEETING }]);
    const stored = await api("GET", `/memories/${memory.id}`, { key });
    expect(stored.body.data.chunk_count).toBeGreaterThanOrEqual(3);
    const counts = await storedCounts(ns.id);
    expect(counts.chunks).toBe(stored.body.data.chunk_count + 1);
    const matches = (
      await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "when is the generator tested?" } })
    ).body.data;
    expect(matches[0].memory_id).toBe(memory.id);
    expect(matches[0].content).toContain("emergency generator is tested every first Monday");
    expect(matches[0].content.length).toBeLessThan(filler.join(" ").length);
  });

  test.each([
    ["content over the limit", { content: "x".repeat(LIMITS.contentChars + 1) }, "body.content"],
    ["an empty batch", { memories: [] }, "body.memories"],
    [
      "a batch over the limit",
      { memories: Array.from({ length: LIMITS.batchSize + 1 }, () => ({ content: "x" })) },
      "body.memories",
    ],
    [
      "metadata over the limit",
      { content: "x", metadata: { blob: "y".repeat(LIMITS.metadataBytes) } },
      "body.metadata",
    ],
    ["a nested metadata value", { content: "x", metadata: { a: { b: 1 } } }, "body.metadata.a"],
    ["a non-string scope value", { content: "x", scopes: { team: 5 } }, "body.scopes.team"],
    ["an empty identity_id", { content: "x", identity_id: "" }, "body.identity_id"],
    ["both content and memories", { content: "x", memories: [{ content: "y" }] }, "body"],
    ["neither content nor memories", { metadata: {} }, "body"],
    ["an unknown field", { content: "x", text: "typo" }, "body"],
  ])("%s → 400 naming the field, nothing stored", async (_label, body, field) => {
    const { key, ns } = await tenantWithNamespace();
    const response = await api("POST", "/remember", { key, body: { namespace_id: ns.id, ...body } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("BAD_REQUEST");
    expect(response.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await storedCounts(ns.id)).memories).toBe(0);
  });

  test("a body over 5 MiB → 413", async () => {
    const { key, ns } = await tenantWithNamespace();
    const memories = Array.from({ length: 60 }, () => ({ content: "z".repeat(99_000) }));
    const response = await api("POST", "/remember", { key, body: { namespace_id: ns.id, memories } });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe("PAYLOAD_TOO_LARGE");
  });
});

describe("namespace targets", () => {
  test("external_reference_id addresses the namespace like its id", async () => {
    const { key, ns } = await tenantWithNamespace();
    const created = await api("POST", "/remember", {
      key,
      body: { external_reference_id: ns.external_reference_id, content: TRIP },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.namespace_id).toBe(ns.id);
    expect(
      await recallContents(key, { external_reference_id: ns.external_reference_id, query: "holiday in Portugal" }),
    ).toContain(TRIP);
    const forgot = await api("POST", "/forget", {
      key,
      body: { external_reference_id: ns.external_reference_id, all: true },
    });
    expect(forgot.body.data.deleted).toBe(1);
  });

  test.each([
    ["/remember", { content: "x" }],
    ["/recall", { query: "x" }],
    ["/forget", { all: true }],
  ])("%s with both or neither target → 400; with an unknown one → 404", async (path, extra) => {
    const { key, ns } = await tenantWithNamespace();
    for (const target of [{}, { namespace_id: ns.id, external_reference_id: ns.external_reference_id }]) {
      const response = await api("POST", path, { key, body: { ...target, ...extra } });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain("exactly one of namespace_id and external_reference_id");
    }
    expect((await api("POST", path, { key, body: { namespace_id: "ns_missing", ...extra } })).status).toBe(404);
    expect((await api("POST", path, { key, body: { external_reference_id: "missing", ...extra } })).status).toBe(404);
  });

  test("a namespace not granted to the key → 404 on every memory route, nothing changes", async () => {
    const { org, key, ns } = await tenantWithNamespace();
    const [memory] = await rememberAll(key, ns.id, [{ content: PETS }]);
    const ungranted = await createKey(org.id, { permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"] });
    expect(
      (await api("POST", "/remember", { key: ungranted.secret, body: { namespace_id: ns.id, content: "x" } })).status,
    ).toBe(404);
    expect(
      (await api("POST", "/recall", { key: ungranted.secret, body: { namespace_id: ns.id, query: "dog" } })).status,
    ).toBe(404);
    expect(
      (await api("POST", "/forget", { key: ungranted.secret, body: { namespace_id: ns.id, all: true } })).status,
    ).toBe(404);
    expect((await api("GET", `/memories/${memory.id}`, { key: ungranted.secret })).status).toBe(404);
    expect((await storedCounts(ns.id)).memories).toBe(1);
  });

  test("permissions: recall needs NAMESPACE_READ, remember and forget need NAMESPACE_WRITE", async () => {
    const { org, key, ns } = await tenantWithNamespace();
    const [memory] = await rememberAll(key, ns.id, [{ content: PETS }]);
    const writer = await createKey(org.id, { permissions: ["NAMESPACE_WRITE"], namespaceIds: [ns.id] });
    const reader = await createKey(org.id, { permissions: ["NAMESPACE_READ"], namespaceIds: [ns.id] });
    expect(
      (await api("POST", "/recall", { key: writer.secret, body: { namespace_id: ns.id, query: "dog" } })).status,
    ).toBe(403);
    expect((await api("GET", `/memories/${memory.id}`, { key: writer.secret })).status).toBe(403);
    expect(
      (await api("POST", "/remember", { key: reader.secret, body: { namespace_id: ns.id, content: "x" } })).status,
    ).toBe(403);
    expect(
      (await api("POST", "/forget", { key: reader.secret, body: { namespace_id: ns.id, all: true } })).status,
    ).toBe(403);
    expect((await storedCounts(ns.id)).memories).toBe(1);
  });
});

describe("recall", () => {
  test("finds a paraphrase that shares no word with the memory", async () => {
    const { key, ns } = await tenantWithNamespace();
    await rememberAll(key, ns.id, [{ content: RUST }, { content: MEETING }, { content: PETS }, { content: TRIP }]);
    const [first] = await recallContents(key, { namespace_id: ns.id, query: "Which dog breed do they own?" });
    expect(first).toBe(PETS);
    const [coding] = await recallContents(key, { namespace_id: ns.id, query: "What does the user enjoy coding in?" });
    expect(coding).toBe(RUST);
  });

  test("scores are in [0, 1], best first; top_k and min_score cut the list", async () => {
    const { key, ns } = await tenantWithNamespace();
    await rememberAll(key, ns.id, [{ content: RUST }, { content: MEETING }, { content: PETS }, { content: TRIP }]);
    // min_score 0: every memory scoring above 0, also those below the default relevance floor.
    const all = (
      await api("POST", "/recall", {
        key,
        body: { namespace_id: ns.id, query: "sales meeting on Thursday", min_score: 0 },
      })
    ).body.data;
    expect(all).toHaveLength(4);
    // Without it, the relevance floor leaves out the memories sharing no word and not close in meaning.
    const floored = (
      await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "sales meeting on Thursday" } })
    ).body.data;
    expect(floored.map((m: { content: string }) => m.content)).toEqual([MEETING]);
    expect(all[0].content).toBe(MEETING);
    for (const match of all) {
      expect(match.score).toBeGreaterThanOrEqual(0);
      expect(match.score).toBeLessThanOrEqual(1);
    }
    expect(all.map((m: { score: number }) => m.score)).toEqual(
      [...all.map((m: { score: number }) => m.score)].sort((a, b) => b - a),
    );
    expect(Object.keys(all[0]).sort()).toEqual([
      "chunk_id",
      "content",
      "context",
      "created_at",
      "document",
      "entities",
      "identity_id",
      "invalid_at",
      "match_reasons",
      "memory_id",
      "metadata",
      "occurred_at",
      "position",
      "role",
      "scopes",
      "score",
      "session_id",
      "superseded_by",
      "valid_at",
    ]);
    expect(
      (
        await api("POST", "/recall", {
          key,
          body: { namespace_id: ns.id, query: "sales meeting on Thursday", top_k: 2, min_score: 0 },
        })
      ).body.data,
    ).toHaveLength(2);
    const strict = (
      await api("POST", "/recall", {
        key,
        body: { namespace_id: ns.id, query: "sales meeting on Thursday", min_score: all[0].score },
      })
    ).body.data;
    expect(strict.map((m: { content: string }) => m.content)).toEqual([MEETING]);
  });

  test("on an empty namespace → 200 with []", async () => {
    const { key, ns } = await tenantWithNamespace();
    const response = await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "anything at all" } });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
  });

  test.each([
    ["an empty query", { query: "" }, "body.query"],
    ["a query over the limit", { query: "q".repeat(LIMITS.queryChars + 1) }, "body.query"],
    ["top_k 0", { query: "x", top_k: 0 }, "body.top_k"],
    ["top_k 101", { query: "x", top_k: 101 }, "body.top_k"],
    ["a fractional top_k", { query: "x", top_k: 2.5 }, "body.top_k"],
    ["min_score above 1", { query: "x", min_score: 1.5 }, "body.min_score"],
    ["a query that is not a string", { query: 42 }, "body.query"],
  ])("%s → 400 naming the field", async (_label, body, field) => {
    const { key, ns } = await tenantWithNamespace();
    const response = await api("POST", "/recall", { key, body: { namespace_id: ns.id, ...body } });
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  test("filters by identity_id and by metadata values, inside the search", async () => {
    const { key, ns } = await tenantWithNamespace();
    const filler = Array.from({ length: 30 }, (_, i) => ({
      content: `Alice note ${i}: she prefers window seats on long flights.`,
      identity_id: "alice",
      metadata: { kind: "travel" },
    }));
    await rememberAll(key, ns.id, [
      ...filler,
      { content: "Bob prefers aisle seats on flights.", identity_id: "bob", metadata: { kind: "travel" } },
      { content: "Bob is allergic to peanuts.", identity_id: "bob", metadata: { kind: "health" } },
    ]);
    // Thirty better matches for Alice do not crowd Bob's out: the filter runs before the limit.
    expect(
      await recallContents(key, {
        namespace_id: ns.id,
        query: "window seats on flights",
        identity_id: "bob",
        top_k: 5,
      }),
    ).toEqual(expect.arrayContaining(["Bob prefers aisle seats on flights."]));
    const bobs = (
      await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "seats", identity_id: "bob" } })
    ).body.data;
    expect(bobs.every((m: { identity_id: string }) => m.identity_id === "bob")).toBe(true);
    expect(
      await recallContents(key, { namespace_id: ns.id, query: "what should bob avoid", metadata: { kind: "health" } }),
    ).toEqual(["Bob is allergic to peanuts."]);
    expect(await recallContents(key, { namespace_id: ns.id, query: "seats", identity_id: "carol" })).toEqual([]);
  });
});

describe("recall's speed", () => {
  test("with MEMGW_SERVER_TIMING=1 a recall says where its time went (Server-Timing); not by default", async () => {
    const { key, ns } = await tenantWithNamespace();
    await rememberAll(key, ns.id, [{ content: PETS }, { content: RUST }]);
    const recall = () =>
      api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "which dog do they have" } });
    expect((await recall()).headers.get("server-timing")).toBeNull();
    vi.stubEnv("MEMGW_SERVER_TIMING", "1");
    try {
      const response = await recall();
      expect(response.status).toBe(200);
      expect(response.body.data[0].content).toBe(PETS);
      const stages = Object.fromEntries(
        response.headers
          .get("server-timing")!
          .split(", ")
          .map((part) => {
            const [name, duration] = part.split(";dur=");
            return [name, Number(duration)];
          }),
      );
      expect(Object.keys(stages)).toEqual(
        expect.arrayContaining(["auth", "body", "namespace", "embed", "lexical", "embed-wait", "vector", "total"]),
      );
      for (const ms of Object.values(stages)) expect(ms).toBeGreaterThanOrEqual(0);
      expect(stages.total).toBeGreaterThanOrEqual(stages.auth + stages.lexical);
      // A refusal says it too, and still changes nothing.
      const refused = await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "" } });
      expect(refused.status).toBe(400);
      expect(refused.headers.get("server-timing")).toMatch(/auth;dur=[\d.]+.*total;dur=/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  test("a question an organization asks again is embedded once, and answered the same", async () => {
    const { key, ns } = await tenantWithNamespace();
    await rememberAll(key, ns.id, [{ content: PETS }, { content: RUST }, { content: TRIP }]);
    const embed = vi.spyOn(embedder(), "embed");
    try {
      const body = { namespace_id: ns.id, query: `Where is the holiday going? ${Date.now()}` };
      const first = await api("POST", "/recall", { key, body });
      const second = await api("POST", "/recall", { key, body });
      expect(second.body.data).toEqual(first.body.data);
      expect(first.body.data[0].content).toBe(TRIP);
      expect(embed.mock.calls.filter(([texts]) => texts[0] === body.query)).toHaveLength(1);
      // Another text is another embedding, even if it differs by one character.
      await api("POST", "/recall", { key, body: { ...body, query: `${body.query}?` } });
      expect(embed.mock.calls.filter(([texts]) => texts[0] === `${body.query}?`)).toHaveLength(1);
      // Another organization asking the same is not served from this one's: its latency tells nothing.
      const other = await tenantWithNamespace();
      await api("POST", "/recall", { key: other.key, body: { ...body, namespace_id: other.ns.id } });
      expect(embed.mock.calls.filter(([texts]) => texts[0] === body.query)).toHaveLength(2);
    } finally {
      embed.mockRestore();
    }
  });
});

describe("forget", () => {
  async function seeded() {
    const tenant = await tenantWithNamespace();
    const memories = await rememberAll(tenant.key, tenant.ns.id, [
      { content: PETS, identity_id: "alice", metadata: { topic: "pets" }, scopes: { team: "home" } },
      { content: RUST, identity_id: "alice", metadata: { topic: "work" }, scopes: { team: "eng" } },
      { content: MEETING, identity_id: "bob", metadata: { topic: "work" }, scopes: { team: "sales" } },
      { content: TRIP, identity_id: "bob", metadata: { topic: "travel" }, scopes: { team: "home" } },
    ]);
    return { ...tenant, memories };
  }

  test.each([
    ["memory_ids", (ids: string[]) => ({ memory_ids: [ids[0], ids[2]] }), [PETS, MEETING]],
    ["identity_id", () => ({ identity_id: "alice" }), [PETS, RUST]],
    ["scopes", () => ({ scopes: { team: "home" } }), [PETS, TRIP]],
    ["metadata", () => ({ metadata: { topic: "work" } }), [RUST, MEETING]],
    [
      "several selectors together (all must match)",
      () => ({ identity_id: "bob", metadata: { topic: "work" } }),
      [MEETING],
    ],
    ["all: true", () => ({ all: true }), [PETS, RUST, MEETING, TRIP]],
  ] as const)(
    "by %s deletes exactly the matching memories, with their chunks, vectors and postings",
    async (_label, selector, gone) => {
      const { key, ns, memories } = await seeded();
      const before = await storedCounts(ns.id);
      const ids = memories.map((m) => m.id);
      const response = await api("POST", "/forget", { key, body: { namespace_id: ns.id, ...selector(ids) } });
      expect(response.status).toBe(200);
      const goneIds = memories.filter((m) => (gone as readonly string[]).includes(m.content)).map((m) => m.id);
      expect(response.body.data).toEqual({
        deleted: gone.length,
        memory_ids: expect.arrayContaining(goneIds),
        namespaces: [{ namespace_id: ns.id, deleted: gone.length }],
        erasure_id: expect.stringMatching(/^era_/),
      });
      expect(response.body.data.memory_ids).toHaveLength(gone.length);
      for (const id of goneIds) expect((await api("GET", `/memories/${id}`, { key })).status).toBe(404);
      const after = await storedCounts(ns.id);
      expect(after.memories).toBe(before.memories - gone.length);
      expect(after.chunks).toBe(before.chunks - gone.length);
      expect(after.stats_chunks).toBe(after.chunks);
      expect(await termStatisticsConsistent(ns.id)).toBe(true);
      const prisma = await db();
      expect(
        await prisma.$queryRaw(
          Prisma.sql`SELECT count(*)::int AS n FROM memory_chunks WHERE memory_id = ANY(${goneIds}::text[])`,
        ),
      ).toEqual([{ n: 0 }]);
      const left = await recallContents(key, { namespace_id: ns.id, query: "dog language meeting holiday", top_k: 10 });
      expect(left.sort()).toEqual(
        memories
          .map((m) => m.content)
          .filter((c) => !(gone as readonly string[]).includes(c))
          .sort(),
      );
    },
  );

  test.each([
    [{}, "say what to forget"],
    [{ memory_ids: [] }, "at least one"],
    [{ scopes: {} }, "at least one scope"],
    [{ all: false }, "must be true"],
    [{ all: true, identity_id: "alice" }, "cannot be combined"],
  ])("an empty or ambiguous selector %j → 400 and nothing is deleted", async (selector, message) => {
    const { key, ns } = await seeded();
    const response = await api("POST", "/forget", { key, body: { namespace_id: ns.id, ...selector } });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.error)).toContain(message);
    expect((await storedCounts(ns.id)).memories).toBe(4);
  });

  test("nothing matching → deleted 0", async () => {
    const { key, ns } = await seeded();
    expect(
      (await api("POST", "/forget", { key, body: { namespace_id: ns.id, identity_id: "nobody" } })).body.data,
    ).toEqual({
      deleted: 0,
      memory_ids: [],
      namespaces: [{ namespace_id: ns.id, deleted: 0 }],
      erasure_id: expect.stringMatching(/^era_/),
    });
  });

  test("deleting the namespace deletes its memories, chunks and statistics", async () => {
    const { key, ns } = await seeded();
    expect((await api("DELETE", `/namespaces/${ns.id}`, { key })).status).toBe(200);
    expect(await storedCounts(ns.id)).toEqual({ memories: 0, chunks: 0, postings: 0, terms: 0, stats_chunks: null });
  });
});
