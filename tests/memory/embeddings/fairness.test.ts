import { afterEach, describe, expect, test, vi } from "vitest";
import { embedder, type EmbeddingProvider } from "@/lib/memory/embeddings";
import { FairQueue } from "@/lib/memory/embeddings/fair-queue";
import { LocalEmbeddingProvider } from "@/lib/memory/embeddings/local";
import { api, routeRequest } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";
import { recallContents, storedCounts, termStatisticsConsistent } from "../../helpers/memory";

const WORDS = [
  "harbour",
  "ledger",
  "orchard",
  "violin",
  "glacier",
  "lantern",
  "meadow",
  "copper",
  "falcon",
  "tundra",
  "quarry",
  "saffron",
];

/** A long document of distinct sentences (~`chars` characters): it is split into many chunks. */
function longDocument(seed: number, chars: number): string {
  const sentences: string[] = [];
  for (let i = 0, length = 0; length < chars; i++) {
    const sentence =
      `Entry ${seed}-${i} notes that the ${WORDS[(seed + i) % WORDS.length]} survey found ${(i * 7 + seed) % 97} ` +
      `items near the ${WORDS[(i * 5 + seed) % WORDS.length]} site.`;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(" ");
}

/** Resolves on the first ingestion handed to the process's embedder: the batch is then queued (or being written). */
function firstIngestion(provider: EmbeddingProvider): Promise<void> {
  return new Promise((resolve) => {
    const embed = provider.embed.bind(provider);
    vi.spyOn(provider, "embed").mockImplementation((texts, priority, requester) => {
      const vectors = embed(texts, priority, requester);
      if (priority === "ingest") resolve();
      return vectors;
    });
  });
}

/** Starts a request and records whether it has finished, so a test can ask while it is still running. */
function tracked<T>(promise: Promise<T>) {
  const state = { settled: false, promise };
  promise.finally(() => (state.settled = true)).catch(() => undefined);
  return state;
}

const holder = globalThis as typeof globalThis & { __memgwEmbedder?: EmbeddingProvider };

/** Instant vectors, so that a batch goes straight to its writes; embedding any text containing `failOn` fails. */
function instantEmbedder(failOn?: string): EmbeddingProvider {
  return {
    model: "instant-test-model",
    dimensions: 512,
    async embed(texts) {
      if (failOn && texts.some((text) => text.includes(failOn))) throw new Error("the embedding service went away");
      return texts.map((text, t) =>
        Array.from({ length: 512 }, (_, i) => Math.sin(text.length * 0.37 + t + i * 0.11) / 16),
      );
    },
    async close() {},
  };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  delete process.env.API_RATE_LIMIT_PER_MINUTE;
});

describe("fair ingestion", () => {
  test("the queue takes organizations in turn, then keys in turn; a newcomer precedes whoever was served last", () => {
    const queue = new FairQueue<string>();
    for (const job of ["a1", "a2", "a3"]) queue.push({ orgId: "org_a", keyId: "key_1" }, job);
    const order = [queue.shift()];
    queue.push({ orgId: "org_b", keyId: "key_9" }, "b1");
    queue.push({ orgId: "org_a", keyId: "key_2" }, "c1");
    while (queue.size > 0) order.push(queue.shift());
    expect(order).toEqual(["a1", "b1", "c1", "a2", "a3"]);
    expect(queue.shift()).toBeUndefined();
  });

  test("a single remember completes while another organization's large batch is still being embedded", async () => {
    const a = await createTenant("Bulk importer");
    const b = await createTenant("Chat app");
    const nsA = await createNamespace(a.key);
    const nsB = await createNamespace(b.key);
    // 100 short memories: four embedding calls of up to 32 texts, one after another on the test's one worker.
    const batch = Array.from({ length: 100 }, (_, i) => ({ content: longDocument(i, 200) }));
    const queued = firstIngestion(embedder());

    const bulk = tracked(api("POST", "/remember", { key: a.key, body: { namespace_id: nsA.id, memories: batch } }));
    await queued;
    const single = await api("POST", "/remember", {
      key: b.key,
      body: { namespace_id: nsB.id, content: "The dentist appointment moved to Friday at 3pm." },
    });
    expect(single.status).toBe(201);
    expect(bulk.settled).toBe(false);
    expect(await recallContents(b.key, { namespace_id: nsB.id, query: "when is the dentist appointment" })).toEqual([
      "The dentist appointment moved to Friday at 3pm.",
    ]);

    const bulkResponse = await bulk.promise;
    expect(bulkResponse.status).toBe(201);
    expect(bulkResponse.body.data).toHaveLength(100);
    const stored = await storedCounts(nsA.id);
    expect(stored.memories).toBe(100);
    expect(stored.chunks).toBe(
      bulkResponse.body.data.reduce((sum: number, m: { chunk_count: number }) => sum + m.chunk_count, 0),
    );
    expect(await termStatisticsConsistent(nsA.id)).toBe(true);
  }, 300_000);

  test("the embedder takes an organization's keys in turn: a key's text never waits for another's batch", async () => {
    const pool = new LocalEmbeddingProvider(1);
    try {
      await pool.ready();
      const texts = Array.from(
        { length: 6 * 32 },
        (_, i) => `Ticket ${i}: the ${WORDS[i % WORDS.length]} order for customer ${i % 13} shipped late.`,
      );
      const batch = tracked(pool.embed(texts, "ingest", { orgId: "org_a", keyId: "key_importer" }));
      const [single] = await pool.embed(["Ana prefers tea to coffee."], "ingest", {
        orgId: "org_a",
        keyId: "key_chat",
      });
      expect(single).toHaveLength(512);
      expect(batch.settled).toBe(false);
      expect(await batch.promise).toHaveLength(texts.length);
    } finally {
      await pool.close();
    }
  }, 300_000);

  test("with 2 workers another organization's short memory is embedded before the batch's first job ends", async () => {
    const pool = new LocalEmbeddingProvider(2);
    try {
      await pool.ready();
      const finished: string[] = [];
      const batch = Array.from({ length: 4 }, (_, call) =>
        pool
          .embed(
            Array.from({ length: 32 }, (_, i) => longDocument(call * 32 + i, 400)),
            "ingest",
            { orgId: "org_a", keyId: "key_a" },
          )
          .then(() => finished.push(`batch ${call}`)),
      );
      await pool
        .embed(["Ana prefers tea to coffee."], "ingest", { orgId: "org_b", keyId: "key_b" })
        .then(() => finished.push("single"));
      await Promise.all(batch);
      expect(finished).toEqual(["single", "batch 0", "batch 1", "batch 2", "batch 3"]);
    } finally {
      await pool.close();
    }
  }, 300_000);

  test("a big batch is written in short transactions: another organization's remember is saved meanwhile", async () => {
    const previous = holder.__memgwEmbedder;
    const a = await createTenant("Bulk importer");
    const b = await createTenant("Chat app");
    const nsA = await createNamespace(a.key);
    const nsB = await createNamespace(b.key);
    holder.__memgwEmbedder = instantEmbedder();
    try {
      const writing = firstIngestion(holder.__memgwEmbedder);
      const batch = Array.from({ length: 30 }, (_, i) => ({ content: longDocument(100 + i, 20_000) }));
      const bulk = tracked(api("POST", "/remember", { key: a.key, body: { namespace_id: nsA.id, memories: batch } }));
      await writing;
      const single = await api("POST", "/remember", {
        key: b.key,
        body: { namespace_id: nsB.id, content: "Lunch with Priya on Tuesday." },
      });
      expect(single.status).toBe(201);
      expect(bulk.settled).toBe(false);
      expect((await bulk.promise).status).toBe(201);
      expect((await storedCounts(nsA.id)).memories).toBe(30);
      expect(await termStatisticsConsistent(nsA.id)).toBe(true);
    } finally {
      holder.__memgwEmbedder = previous;
    }
  }, 300_000);

  test("a batch that fails part-way leaves nothing stored: the memories it had written are removed again", async () => {
    const previous = holder.__memgwEmbedder;
    const a = await createTenant();
    const ns = await createNamespace(a.key);
    // The batch's fourth memory fails to embed, after the first ones were written.
    holder.__memgwEmbedder = instantEmbedder("Entry 203-");
    try {
      const batch = Array.from({ length: 12 }, (_, i) => ({ content: longDocument(200 + i, 20_000) }));
      const response = await api("POST", "/remember", { key: a.key, body: { namespace_id: ns.id, memories: batch } });
      expect(response.status).toBe(500);
      expect(response.body.success).toBe(false);
      expect(await storedCounts(ns.id)).toMatchObject({ memories: 0, chunks: 0, postings: 0, terms: 0 });
      expect(await termStatisticsConsistent(ns.id)).toBe(true);
    } finally {
      holder.__memgwEmbedder = previous;
    }
  }, 300_000);
});

/** A JSON-RPC request to a namespace's MCP endpoint, as an MCP client sends it. */
function mcpRequest(namespaceId: string, key: string) {
  return routeRequest(
    new Request(`http://gateway.test/api/v1/mcp/${namespaceId}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }),
  );
}

describe("per-key API rate limit", () => {
  // Windows are whole minutes: the test's clock starts early in the next one, so that the window holds
  // only the test's own requests and cannot roll over mid-test.
  function earlyInAMinute() {
    vi.useFakeTimers({ toFake: ["Date"] });
    const now = new Date();
    now.setUTCMinutes(now.getUTCMinutes() + 1, 1, 0);
    vi.setSystemTime(now);
  }

  test("past the limit: 429 with Retry-After; each answer has RateLimit-* headers; other keys unaffected", async () => {
    const { org, key } = await createTenant();
    const other = await createKey(org.id, { name: "other key" });
    process.env.API_RATE_LIMIT_PER_MINUTE = "3";
    earlyInAMinute();

    for (const remaining of [2, 1, 0]) {
      const response = await api("GET", "/namespaces", { key });
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBe("3");
      expect(response.headers.get("ratelimit-remaining")).toBe(String(remaining));
      expect(Number(response.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    }
    const refused = await api("POST", "/recall", { key, body: { namespace_id: "ns_whatever", query: "anything" } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: { code: "RATE_LIMITED" } });
    expect(refused.body.error.message).toMatch(/more than 3 requests/);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("ratelimit-reset")).toBe(String(retryAfter));

    const unaffected = await api("GET", "/namespaces", { key: other.secret });
    expect(unaffected.status).toBe(200);
    expect(unaffected.headers.get("ratelimit-remaining")).toBe("2");

    // A new window starts the count again.
    vi.setSystemTime(Date.now() + retryAfter * 1000);
    expect((await api("GET", "/namespaces", { key })).status).toBe(200);
  });

  test("MCP requests count against the same key's limit and get the same 429", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    process.env.API_RATE_LIMIT_PER_MINUTE = "3";
    earlyInAMinute();

    const first = await mcpRequest(ns.id, key);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-remaining")).toBe("2");
    expect((await api("GET", "/namespaces", { key })).headers.get("ratelimit-remaining")).toBe("1");
    expect((await mcpRequest(ns.id, key)).status).toBe(200);

    const refused = await mcpRequest(ns.id, key);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await refused.json()).error.code).toBe("RATE_LIMITED");
    expect((await api("GET", "/namespaces", { key })).status).toBe(429);
  });

  test("API_RATE_LIMIT_PER_MINUTE=0 turns the limit off; without a valid key nothing is counted", async () => {
    const { key } = await createTenant();
    process.env.API_RATE_LIMIT_PER_MINUTE = "0";
    for (let i = 0; i < 5; i++) {
      const response = await api("GET", "/namespaces", { key });
      expect(response.status).toBe(200);
      expect(response.headers.has("ratelimit-limit")).toBe(false);
    }
    process.env.API_RATE_LIMIT_PER_MINUTE = "2";
    const unauthenticated = await api("GET", "/namespaces", { key: "mgw_notAKey" });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.has("ratelimit-limit")).toBe(false);
  });
});
