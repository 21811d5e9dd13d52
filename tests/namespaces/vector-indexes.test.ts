import { expect, test } from "vitest";
import { db, getDatabase, queryRows } from "@/lib/db";
import {
  dropNamespaceVectorIndex,
  ensureNamespaceVectorIndex,
  namespaceIdLiteral,
  vectorIndexName,
} from "@/lib/namespaces/vector-indexes";
import { vectorParameter } from "@/lib/memory/common/sql";
import { searchChunks } from "@/lib/memory/search/search";
import { api } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";
import { rememberAll } from "../helpers/memory";
import { Prisma } from "@/lib/generated/prisma/client";

const MEMORIES = [
  "I adopted a golden retriever named Max last spring.",
  "My favourite programming language is Rust because of its borrow checker.",
  "The quarterly sales meeting is on Thursday at 10am in room 4B.",
  "Next month I am flying to Lisbon for a two-week holiday with my sister.",
  "Our team ships the mobile release every second Tuesday.",
  "The dentist appointment moved to Friday afternoon.",
].map((content) => ({ content }));

async function indexOf(namespaceId: string) {
  const rows = await (
    await db()
  ).$queryRaw<{ indexdef: string }[]>(
    Prisma.sql`SELECT indexdef FROM pg_indexes WHERE tablename = 'memory_chunks' AND indexname =
        ${vectorIndexName(namespaceId)}`,
  );
  return rows[0]?.indexdef;
}

test("past the exact-scan size a namespace gets its own HNSW index, a small one none; deleted, dropped", async () => {
  const { org, key } = await createTenant();
  const large = await createNamespace(key);
  const small = await createNamespace(key);
  await rememberAll(key, large.id, MEMORIES);
  await rememberAll(key, small.id, MEMORIES.slice(0, 2));
  // No shared index over every tenant's chunks any more.
  const shared = await (
    await db()
  ).$queryRaw<{ n: number }[]>(Prisma.sql`SELECT count(*)::int AS n FROM pg_indexes
     WHERE tablename = 'memory_chunks' AND indexname = 'memory_chunks_embedding_idx'`);
  expect(shared).toEqual([{ n: 0 }]);
  // What remember does past EXACT_VECTOR_SCAN_LIMIT (500 chunks), with a size these namespaces pass.
  await ensureNamespaceVectorIndex(large.id, 4);
  await ensureNamespaceVectorIndex(small.id, 4);
  expect(await indexOf(large.id)).toMatch(
    new RegExp(`USING hnsw \\(embedding vector_cosine_ops\\) WHERE \\(namespace_id = '${large.id}'::text\\)`),
  );
  expect(await indexOf(small.id)).toBeUndefined();
  // Through its index or scanned exactly, the namespace's nearest memories are the same, and only its own.
  const search = (exactVectorScanLimit: number) =>
    searchChunks({
      orgId: org.id,
      namespaceId: large.id,
      query: "a dog",
      topK: 6,
      mode: "vector",
      // Every memory, however far from the query: the default relevance floor would keep only the near ones.
      minScore: 0,
      exactVectorScanLimit,
    });
  const [indexed, exact] = [await search(0), await search(10_000)];
  expect(indexed.map((m) => m.content)).toEqual(exact.map((m) => m.content));
  expect(indexed[0].content).toBe(MEMORIES[0].content);
  // Only this namespace's memories, each of them but one whose similarity to "a dog" is not above 0 (a match
  // never scores 0).
  const contents = MEMORIES.map((m) => m.content);
  expect(indexed.every((m) => contents.includes(m.content) && m.score > 0)).toBe(true);
  expect(indexed.length).toBeGreaterThanOrEqual(MEMORIES.length - 1);

  // The embedded database keeps the statement and, after its first few runs, one plan through the index: it
  // was planned afresh on every search while the namespace was a parameter (a partial index's predicate must
  // be in the text). PostgreSQL gets that text unnamed, as before: no connection keeps one per namespace.
  for (let i = 0; i < 8; i++) await search(0);
  const kept = await queryRows<{ generic_plans: number; custom_plans: number }>(
    Prisma.sql`SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements
     WHERE statement LIKE '%query_vector%' AND statement LIKE ${`%namespace_id = '${large.id}'%`}`,
  );
  if ((await getDatabase()).kind === "pglite") {
    expect(kept).toHaveLength(1);
    expect(kept[0].generic_plans).toBeGreaterThanOrEqual(3);
  } else expect(kept).toEqual([]);

  expect((await api("DELETE", `/namespaces/${large.id}`, { key })).status).toBe(200);
  expect(await indexOf(large.id)).toBeUndefined();
  await dropNamespaceVectorIndex(small.id); // none to drop: no error
});

test("an index name or literal is made only of a namespace id: anything else is refused before it reaches SQL", () => {
  expect(vectorIndexName("ns_AbC123")).toBe("memory_chunks_embedding_ns_AbC123");
  expect(namespaceIdLiteral("ns_AbC123").sql).toBe("'ns_AbC123'");
  for (const id of [`ns_x"; DROP TABLE memories; --`, "ns_x' OR '1'='1", "", "ns-ü", "n".repeat(41)]) {
    expect(() => vectorIndexName(id)).toThrow(/Not a namespace id/);
    expect(() => namespaceIdLiteral(id)).toThrow(/Not a namespace id/);
  }
});

/** A vector in pgvector's text form. */
const vectorLiteral = (vector: number[]) => `[${vector.join(",")}]`;

test("a vector sent in pgvector's binary format is the vector its text gives, element for element", async () => {
  const vectors = [
    Array.from({ length: 512 }, (_, i) => Math.fround(Math.sin(i * 1.7) / 7)),
    [Math.fround(1e-38), 0, Math.fround(3.4e38), Math.fround(-1 / 3)],
    [0.1, 1 / 3, -2.5e-8], // doubles: each rounded to float4, as the text form's are
  ];
  for (const vector of vectors) {
    const [row] = await queryRows<{ binary: string; text: string; distance: number }>(
      Prisma.sql`SELECT ${vectorParameter(vector)}::vector::text AS binary,
                 ${vectorLiteral(vector)}::vector::text AS text,
                 (${vectorParameter(vector)}::vector <-> ${vectorLiteral(vector)}::vector)::float8 AS distance`,
    );
    expect(row.binary).toBe(row.text);
    expect(row.distance).toBe(0);
    // Through Prisma too (remember writes its chunks' vectors so, inside its transactions).
    const [viaPrisma] = await (
      await db()
    ).$queryRaw<{ binary: string }[]>(Prisma.sql`SELECT ${vectorParameter(vector)}::vector::text AS binary`);
    expect(viaPrisma.binary).toBe(row.text);
  }
  // What pgvector refuses in text it refuses in binary.
  await expect(queryRows(Prisma.sql`SELECT ${vectorParameter([1, Number.NaN])}::vector AS v`)).rejects.toThrow(/NaN/);
  expect(() => vectorParameter(new Array(16_001).fill(0))).toThrow(RangeError);
});
