// Every promise of uniqueness holds when the requests that would break it arrive at once: the database
// enforces it (a unique index), and the request that loses the race gets what it would have got had it come
// second — the existing memory for a remember, 409 CONFLICT for a name or a grant.
import { describe, expect, test } from "vitest";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { api, type ApiResponse } from "./helpers/api";
import { createKey, createNamespace, createTenant } from "./helpers/fixtures";
import { storedCounts, termStatisticsConsistent } from "./helpers/memory";

const AT_ONCE = 12;
const FACT = "Caroline moved to Lisbon in March and now works at the harbour museum on weekends.";

function sendAtOnce(count: number, send: (index: number) => Promise<ApiResponse>): Promise<ApiResponse[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => send(index)));
}

function statuses(responses: ApiResponse[]): number[] {
  return responses.map((response) => response.status).sort();
}

async function memoryEvents(namespaceId: string): Promise<number> {
  const prisma = await db();
  const [row] = await prisma.$queryRaw<{ count: number }[]>(
    Prisma.sql`SELECT count(*)::int AS count FROM events WHERE namespace_id = ${namespaceId} AND type = 'memory.created'`,
  );
  return row.count;
}

async function searchStatistics(namespaceId: string) {
  const prisma = await db();
  const [row] = await prisma.$queryRaw<{ chunk_count: number | null; chunks: number }[]>(
    Prisma.sql`SELECT (SELECT chunk_count FROM namespace_search_stats WHERE namespace_id = ${namespaceId}) AS chunk_count,
                      (SELECT count(*)::int FROM memory_chunks WHERE namespace_id = ${namespaceId}) AS chunks`,
  );
  return row;
}

describe("identical remembers sent at once", () => {
  test("store one memory, one set of chunks and one event, and answer as sequential ones do", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const body = { namespace_id: ns.id, content: FACT, identity_id: "caroline", metadata: { source: "chat" } };
    const responses = await sendAtOnce(AT_ONCE, () => api("POST", "/remember", { key, body }));
    expect(statuses(responses)).toEqual(Array(AT_ONCE).fill(201));
    const memories = responses.map((response) => response.body.data);
    const stored = memories.filter((memory) => !memory.deduplicated);
    expect(stored).toHaveLength(1);
    for (const memory of memories) {
      expect(memory).toEqual({ ...stored[0], deduplicated: memory.deduplicated });
    }
    const counts = await storedCounts(ns.id);
    expect(counts.memories).toBe(1);
    expect(counts.chunks).toBe(stored[0].chunk_count);
    expect(await searchStatistics(ns.id)).toEqual({ chunk_count: counts.chunks, chunks: counts.chunks });
    expect(await termStatisticsConsistent(ns.id)).toBe(true);
    expect(await memoryEvents(ns.id)).toBe(1);

    // A sequential one afterwards answers the same memory.
    const again = await api("POST", "/remember", { key, body });
    expect(again.body.data).toEqual({ ...stored[0], deduplicated: true });
  });

  test("in batches racing, each with the same item twice, every item is stored once", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const other = "The harbour museum closes at six on Sundays.";
    const body = { namespace_id: ns.id, memories: [{ content: FACT }, { content: other }, { content: FACT }] };
    const responses = await sendAtOnce(AT_ONCE, () => api("POST", "/remember", { key, body }));
    expect(statuses(responses)).toEqual(Array(AT_ONCE).fill(201));
    const ids = new Set<string>();
    for (const response of responses) {
      const [first, second, repeat] = response.body.data;
      expect(repeat).toMatchObject({ id: first.id, deduplicated: true });
      expect(second.id).not.toBe(first.id);
      ids.add(first.id).add(second.id);
    }
    expect(ids.size).toBe(2);
    const created = responses.flatMap((response) => response.body.data).filter((memory) => !memory.deduplicated);
    expect(created).toHaveLength(2);
    expect((await storedCounts(ns.id)).memories).toBe(2);
    expect(await termStatisticsConsistent(ns.id)).toBe(true);
    expect(await memoryEvents(ns.id)).toBe(2);
  });

  test("a single remember and batches holding it, at once, store it once", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const responses = await sendAtOnce(AT_ONCE, (index) =>
      api("POST", "/remember", {
        key,
        body:
          index % 2 === 0
            ? { namespace_id: ns.id, content: FACT }
            : { namespace_id: ns.id, memories: [{ content: `Item ${index} of a batch.` }, { content: FACT }] },
      }),
    );
    expect(statuses(responses)).toEqual(Array(AT_ONCE).fill(201));
    const answers = responses.map((response, index) => (index % 2 === 0 ? response.body.data : response.body.data[1]));
    expect(new Set(answers.map((memory) => memory.id)).size).toBe(1);
    expect(answers.filter((memory) => !memory.deduplicated)).toHaveLength(1);
    expect((await storedCounts(ns.id)).memories).toBe(1 + AT_ONCE / 2);
    expect(await termStatisticsConsistent(ns.id)).toBe(true);
  });

  test("what is never deduplicated is still stored every time: allow_duplicate, an expiry, another identity", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const bodies = [
      { namespace_id: ns.id, content: FACT, allow_duplicate: true },
      { namespace_id: ns.id, content: FACT, ttl_seconds: 3600 },
    ];
    const responses = await sendAtOnce(AT_ONCE, (index) => api("POST", "/remember", { key, body: bodies[index % 2] }));
    expect(statuses(responses)).toEqual(Array(AT_ONCE).fill(201));
    expect(responses.every((response) => response.body.data.deduplicated === false)).toBe(true);
    expect((await storedCounts(ns.id)).memories).toBe(AT_ONCE);
    const identities = await sendAtOnce(AT_ONCE, (index) =>
      api("POST", "/remember", { key, body: { namespace_id: ns.id, content: FACT, identity_id: `user-${index}` } }),
    );
    expect(identities.every((response) => response.body.data.deduplicated === false)).toBe(true);
    expect((await storedCounts(ns.id)).memories).toBe(2 * AT_ONCE);
  });
});

describe("names sent at once", () => {
  test("one namespace per name: one 201, the others 409 naming the field", async () => {
    const { key } = await createTenant();
    const responses = await sendAtOnce(AT_ONCE, () =>
      api("POST", "/namespaces", { key, body: { name: "support-bot" } }),
    );
    expect(statuses(responses)).toEqual([201, ...Array(AT_ONCE - 1).fill(409)]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(response.body.error).toMatchObject({
        code: "CONFLICT",
        message: 'A namespace named "support-bot" already exists in this organization.',
        details: [{ field: "body.name" }],
      });
    }
    const list = await api("GET", "/namespaces?page_size=100", { key });
    expect(list.body.data.filter((n: { name: string }) => n.name === "support-bot")).toHaveLength(1);
  });

  test("one namespace per external_reference_id, and per name when renamed at once", async () => {
    const { key } = await createTenant();
    const responses = await sendAtOnce(AT_ONCE, (index) =>
      api("POST", "/namespaces", { key, body: { name: `crm-${index}`, external_reference_id: "crm-42" } }),
    );
    expect(statuses(responses)).toEqual([201, ...Array(AT_ONCE - 1).fill(409)]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(response.body.error.details).toEqual([expect.objectContaining({ field: "body.external_reference_id" })]);
    }
    const namespaces = await Promise.all(Array.from({ length: AT_ONCE }, () => createNamespace(key)));
    const renames = await sendAtOnce(AT_ONCE, (index) =>
      api("PATCH", `/namespaces/${namespaces[index].id}`, { key, body: { name: "renamed" } }),
    );
    expect(statuses(renames)).toEqual([200, ...Array(AT_ONCE - 1).fill(409)]);
    expect(renames.find((r) => r.status === 409)!.body.error.details).toEqual([
      expect.objectContaining({ field: "body.name" }),
    ]);
  });

  test("one grant per key and namespace: one 201, the others 409", async () => {
    const { key, org } = await createTenant();
    const ns = await createNamespace(key);
    const grantee = await createKey(org.id, { name: "grantee" });
    const responses = await sendAtOnce(AT_ONCE, () =>
      api("POST", `/namespaces/${ns.id}/grants`, { key, body: { api_key_id: grantee.id } }),
    );
    expect(statuses(responses)).toEqual([201, ...Array(AT_ONCE - 1).fill(409)]);
    expect(responses.find((r) => r.status === 409)!.body.error).toMatchObject({
      code: "CONFLICT",
      message: `That API key already has access to namespace ${ns.id}.`,
    });
    const grants = await api("GET", `/namespaces/${ns.id}/grants`, { key });
    expect(grants.body.data.filter((g: { api_key_id?: string }) => g.api_key_id === grantee.id)).toHaveLength(1);
  });
});
