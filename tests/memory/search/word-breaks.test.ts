// Text in scripts written without spaces is found by its words (lib/memory/common/word-breaks.ts): the full-text
// index and the query are both cut into words by ICU's segmentation, so a word of a Chinese, Japanese or Thai
// memory is a term a question can share.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { TEXT_SEARCH_CONFIG } from "@/lib/memory/common/sql";
import { withWordBreaks } from "@/lib/memory/common/word-breaks";
import { subtractTermStatistics } from "@/lib/memory/store/deletion";
import { reindexWordBreaks } from "@/lib/memory/store/word-break-reindex";
import { api } from "../../helpers/api";
import { createNamespace, createTenant } from "../../helpers/fixtures";
import { rememberAll } from "../../helpers/memory";

interface Match {
  content: string;
  score: number;
  match_reasons: { terms: string[]; via: string };
}

async function recall(key: string, query: string, namespaceId: string) {
  const response = await api("POST", "/recall", { key, body: { namespace_id: namespaceId, query } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as Match[];
}

const CHINESE = "我住在北京，在一家银行工作。";
const JAPANESE = "東京に住んでいて、毎朝コーヒーを飲みます。";
const THAI = "ฉันอาศัยอยู่ที่กรุงเทพและทำงานที่โรงพยาบาล";
const GREEK = "Η Μαρία μένει στην Αθήνα.";
const ENGLISH = "The quarterly report is due on the first Friday of March.";

test("spaces go between the words of unspaced scripts only", () => {
  expect(withWordBreaks(ENGLISH)).toBe(ENGLISH);
  expect(withWordBreaks(GREEK)).toBe(GREEK);
  expect(withWordBreaks("我住在北京").split(/\s+/).filter(Boolean)).toEqual(["我", "住在", "北京"]);
  expect(withWordBreaks("Maria 住在北京").split(/\s+/).filter(Boolean)).toEqual(["Maria", "住在", "北京"]);
});

test("a word of a Chinese, Japanese, Thai or Greek memory finds it, first and with that word", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  await rememberAll(
    key,
    ns.id,
    [CHINESE, JAPANESE, THAI, GREEK, ENGLISH].map((content) => ({ content })),
  );
  for (const [query, memory, word] of [
    ["北京", CHINESE, "北京"],
    ["谁在银行工作？", CHINESE, "银行"],
    ["東京", JAPANESE, "東京"],
    ["コーヒー", JAPANESE, "コーヒー"],
    ["กรุงเทพ", THAI, "กรุงเทพ"],
    ["Αθήνα", GREEK, "Αθήνα"],
  ]) {
    const matches = await recall(key, query, ns.id);
    expect(matches[0]?.content, query).toBe(memory);
    expect(matches[0].match_reasons.terms, query).toContain(word);
  }
  // A memory the question shares no word with is no confident answer, whatever the embedder makes of the script.
  for (const match of await recall(key, "我喜欢猫", ns.id)) expect(match.score).toBeLessThan(0.5);
}, 180_000); // the first test of the file waits for the embedding model to load

/** The namespace's index as the statistics tell it: chunk count, term total, and each term's document frequency. */
async function indexOf(namespaceId: string) {
  const prisma = await db();
  const [stats] = await prisma.$queryRaw<{ chunk_count: number; total_terms: number }[]>(
    Prisma.sql`SELECT chunk_count::int, total_terms::int FROM namespace_search_stats
               WHERE namespace_id = ${namespaceId}`,
  );
  const terms = await prisma.$queryRaw<{ term: string; df: number }[]>(
    Prisma.sql`SELECT term, df::int FROM namespace_terms WHERE namespace_id = ${namespaceId} ORDER BY term`,
  );
  const postings = await prisma.$queryRaw<{ term: string; tf: number; term_count: number }[]>(
    Prisma.sql`SELECT term, tf, term_count FROM chunk_terms
               WHERE namespace_id = ${namespaceId} ORDER BY term, chunk_id`,
  );
  return { stats, terms, postings };
}

test("a memory indexed before word breaks is marked by the migration and indexed again as if new", async () => {
  const { key } = await createTenant();
  const old = await createNamespace(key);
  const fresh = await createNamespace(key);
  const memories = [{ content: CHINESE }, { content: ENGLISH }];
  const [chinese] = await rememberAll(key, old.id, memories);
  await rememberAll(key, fresh.id, memories);
  const prisma = await db();
  // The Chinese memory as the index held it before: its text's terms as PostgreSQL's parser alone cuts them.
  await prisma.$transaction(async (tx) => {
    const chunkIds = (
      await tx.$queryRaw<{ id: string }[]>(Prisma.sql`SELECT id FROM memory_chunks WHERE memory_id = ${chinese.id}`)
    ).map((c) => c.id);
    await subtractTermStatistics(tx, old.id, chunkIds);
    await tx.$executeRaw(Prisma.sql`DELETE FROM chunk_terms WHERE chunk_id = ANY(${chunkIds}::text[])`);
    await tx.$executeRaw(
      Prisma.sql`WITH t AS (SELECT c.id, l.lexeme, array_length(l.positions, 1) AS tf
                            FROM memory_chunks c, unnest(to_tsvector(${TEXT_SEARCH_CONFIG}::regconfig, c.content)) l
                            WHERE c.id = ANY(${chunkIds}::text[])),
                      counted AS (SELECT id, sum(tf)::int AS n FROM t GROUP BY id),
                      chunks AS (UPDATE memory_chunks c SET term_count = counted.n
                                 FROM counted WHERE c.id = counted.id),
                      postings AS (INSERT INTO chunk_terms (namespace_id, term, chunk_id, tf, term_count)
                                   SELECT ${old.id}, t.lexeme, t.id, t.tf, counted.n FROM t JOIN counted USING (id)),
                      terms AS (INSERT INTO namespace_terms (namespace_id, term, df)
                                SELECT ${old.id}, lexeme, count(*) FROM t GROUP BY lexeme
                                ON CONFLICT (namespace_id, term) DO UPDATE SET df = namespace_terms.df + EXCLUDED.df)
                 UPDATE namespace_search_stats SET chunk_count = chunk_count + (SELECT count(*) FROM counted),
                                                   total_terms = total_terms + (SELECT sum(n) FROM counted)
                 WHERE namespace_id = ${old.id}`,
    );
  });
  const before = (await recall(key, "北京", old.id)).find((m) => m.content === CHINESE);
  expect(before?.match_reasons.terms ?? []).not.toContain("北京");

  // The migration's marking statement marks the Chinese chunk and not the English one.
  const migration = fs.readFileSync(
    path.join(process.cwd(), "prisma/migrations/20261130220000_word_breaks/migration.sql"),
    "utf8",
  );
  const marking = /UPDATE "memory_chunks"[^;]+;/.exec(migration)![0];
  await prisma.$executeRaw(Prisma.raw(marking));
  const marked = await prisma.memoryChunk.findMany({
    where: { namespaceId: old.id },
    select: { content: true, needsWordBreaks: true },
  });
  expect(Object.fromEntries(marked.map((c) => [c.content, c.needsWordBreaks]))).toEqual({
    [CHINESE]: true,
    [ENGLISH]: false,
  });

  await reindexWordBreaks();
  expect(await prisma.memoryChunk.count({ where: { needsWordBreaks: true } })).toBe(0);
  const after = await recall(key, "北京", old.id);
  expect(after[0]?.content).toBe(CHINESE);
  expect(after[0].match_reasons.terms).toContain("北京");
  expect(await indexOf(old.id)).toEqual(await indexOf(fresh.id));
});
