// A chunk's BM25 postings go with it, however it is deleted (a trigger since migration
// 20261202120000_chunk_terms_deleted_by_trigger, no longer a foreign key): an update of its content, a forget of
// its memory by id, a forget by identity, a namespace's deletion (the cascade from namespaces to memories to chunks).
// Nothing else's postings go, and the term statistics still equal what the postings say.
import { expect, test } from "vitest";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { api } from "../../helpers/api";
import { createNamespace, createTenant } from "../../helpers/fixtures";
import { rememberAll, storedCounts, termStatisticsConsistent } from "../../helpers/memory";

/** Postings whose chunk is gone, in the whole database. */
async function orphanPostings(): Promise<number> {
  const [row] = await (
    await db()
  ).$queryRaw<{ n: number }[]>(
    Prisma.sql`SELECT count(*)::int AS n FROM chunk_terms p
               WHERE NOT EXISTS (SELECT 1 FROM memory_chunks c WHERE c.id = p.chunk_id)`,
  );
  return row.n;
}

/** The postings of a memory's chunks, by chunk id (so that they are counted after the chunks are gone too). */
async function postingsOfChunks(chunkIds: string[]): Promise<number> {
  const [row] = await (
    await db()
  ).$queryRaw<{ n: number }[]>(
    Prisma.sql`SELECT count(*)::int AS n FROM chunk_terms WHERE chunk_id = ANY(${chunkIds}::text[])`,
  );
  return row.n;
}

async function chunkIdsOf(memoryIds: string[]): Promise<string[]> {
  const rows = await (
    await db()
  ).$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT id FROM memory_chunks WHERE memory_id = ANY(${memoryIds}::text[]) ORDER BY id`,
  );
  return rows.map((row) => row.id);
}

test("a chunk's postings are deleted with it, by every way a chunk is deleted, and no others", async () => {
  const { key } = await createTenant();
  const kept = await createNamespace(key);
  const doomed = await createNamespace(key);
  const [updated, deleted, forgotten, stays] = await rememberAll(key, kept.id, [
    { content: "The lighthouse keeper painted the tower red and white every spring." },
    { content: "Our quarterly planning meeting moved to the large room on the third floor." },
    { content: "Dana prefers green tea with honey in the afternoon.", identity_id: "dana" },
    { content: "The ferry to the island leaves at seven in the morning from pier nine." },
  ]);
  await rememberAll(key, doomed.id, [
    { content: "A namespace about to be deleted holds this memory about sailing boats." },
    { content: "And this one about mountain trails above the lake." },
  ]);
  const chunks = {
    updated: await chunkIdsOf([updated.id]),
    deleted: await chunkIdsOf([deleted.id]),
    forgotten: await chunkIdsOf([forgotten.id]),
    stays: await chunkIdsOf([stays.id]),
  };
  for (const ids of Object.values(chunks)) expect(await postingsOfChunks(ids)).toBeGreaterThan(5);
  const staying = await postingsOfChunks(chunks.stays);
  expect(await storedCounts(doomed.id)).toMatchObject({ memories: 2, chunks: 2 });
  const orphansBefore = await orphanPostings();

  const patched = await api("PATCH", `/memories/${updated.id}`, {
    key,
    body: { content: "The lighthouse keeper now paints the tower blue." },
  });
  expect(patched.status).toBe(200);
  expect(await postingsOfChunks(chunks.updated)).toBe(0);
  expect(await postingsOfChunks(await chunkIdsOf([updated.id]))).toBeGreaterThan(3);

  const byId = await api("POST", "/forget", { key, body: { namespace_id: kept.id, memory_ids: [deleted.id] } });
  expect(byId.body.data).toMatchObject({ deleted: 1 });
  expect(await postingsOfChunks(chunks.deleted)).toBe(0);

  const forget = await api("POST", "/forget", { key, body: { namespace_id: kept.id, identity_id: "dana" } });
  expect(forget.body.data).toMatchObject({ deleted: 1 });
  expect(await postingsOfChunks(chunks.forgotten)).toBe(0);

  expect((await api("DELETE", `/namespaces/${doomed.id}`, { key })).status).toBe(200);
  expect(await storedCounts(doomed.id)).toMatchObject({ memories: 0, chunks: 0, postings: 0 });

  expect(await postingsOfChunks(chunks.stays)).toBe(staying);
  expect(await termStatisticsConsistent(kept.id)).toBe(true);
  // Other tests of this file's database run alongside: none of theirs may be left without a chunk either.
  expect(await orphanPostings()).toBe(0);
  expect(orphansBefore).toBe(0);
});
