// Deletions, updates and writes at once in one namespace, as a busy application sends them: each answers (no
// deadlock between their statistics changes on PostgreSQL, where they run side by side), and the namespace's
// search statistics still count exactly the chunks that are left.
import { expect, test } from "vitest";
import { db } from "@/lib/db";
import { api } from "../../helpers/api";
import { createNamespace, createTenant } from "../../helpers/fixtures";

test("concurrent forgets, updates and writes of one namespace all succeed; its statistics stay exact", async () => {
  const { key } = await createTenant("Concurrent Deletions");
  const namespace = await createNamespace(key);
  const written = await api("POST", "/remember", {
    key,
    body: {
      namespace_id: namespace.id,
      memories: Array.from({ length: 90 }, (_, i) => ({
        content: `Note ${i}: the lab measured protein folding in sample ${i * 7} and cell growth on day ${i % 9}.`,
      })),
    },
  });
  expect(written.status, JSON.stringify(written.body)).toBe(201);
  const ids = (written.body.data as { id: string }[]).map((memory) => memory.id);
  const forgotten = ids.slice(0, 60);
  const updated = ids.slice(60, 75);
  const answers = await Promise.all([
    ...forgotten.map((id) => api("POST", "/forget", { key, body: { namespace_id: namespace.id, memory_ids: [id] } })),
    ...updated.map((id, i) =>
      api("PATCH", `/memories/${id}`, { key, body: { content: `Revised note ${i}: folding rates doubled.` } }),
    ),
    ...Array.from({ length: 10 }, (_, i) =>
      api("POST", "/remember", {
        key,
        body: { namespace_id: namespace.id, content: `Later note ${i}: growth slowed in sample ${i}.` },
      }),
    ),
  ]);
  expect(answers.map((answer) => answer.status).filter((status) => status >= 300)).toEqual([]);

  const prisma = await db();
  expect(await prisma.memory.count({ where: { namespaceId: namespace.id } })).toBe(90 - 60 + 10);
  const [counted] = await prisma.$queryRaw<{ chunks: number; stats: number; terms: number; df: number }[]>`
    SELECT (SELECT count(*)::int FROM memory_chunks WHERE namespace_id = ${namespace.id}) AS chunks,
           (SELECT chunk_count::int FROM namespace_search_stats WHERE namespace_id = ${namespace.id}) AS stats,
           (SELECT count(*)::int FROM (SELECT DISTINCT term FROM chunk_terms WHERE namespace_id = ${namespace.id}) t)
             AS terms,
           (SELECT count(*)::int FROM namespace_terms WHERE namespace_id = ${namespace.id}) AS df`;
  expect(counted.stats).toBe(counted.chunks);
  expect(counted.df).toBe(counted.terms);
});
