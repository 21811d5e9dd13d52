import { expect, test } from "vitest";
import { hitsThatCanRank } from "@/lib/memory/search/ranking";
import { searchChunks } from "@/lib/memory/search/search";
import { lexicalLeg, termSpreadSettled } from "@/lib/memory/search/lexical-leg";
import { embedQuery } from "@/lib/memory/embeddings";
import { createNamespace, createTenant } from "../../helpers/fixtures";
import { rememberAll } from "../../helpers/memory";

test("when the lexical leg is cut at its limit, the results are those of a search that was not cut", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  // Every memory shares one word with the query. The lexical leg (50 candidates for top_k 5) keeps 50 of
  // the 100 short, unrelated ones; the 50 longer ones, close in meaning, reach only the vector leg, and
  // must still be scored with their own BM25 to rank as they would in a search that was not cut.
  const memories = [
    ...Array.from({ length: 100 }, (_, i) => ({ content: `Apple ${i}: the cat slept on the warm windowsill.` })),
    ...Array.from({ length: 50 }, (_, i) => ({ content: `Apple ${i}: fruit picked from farm trees in autumn.` })),
  ];
  for (let i = 0; i < memories.length; i += 100) await rememberAll(key, ns.id, memories.slice(i, i + 100));

  const request = { orgId: org.id, namespaceId: ns.id, query: "apple harvest in the orchard" };
  const exhaustive = await searchChunks({ ...request, topK: 100 }); // 200 candidates per leg: nothing is cut
  expect(exhaustive[0].content).toContain("fruit picked from farm trees");
  for (const topK of [1, 5, 10]) {
    const cut = await searchChunks({ ...request, topK });
    expect(cut.map((m) => [m.memoryId, m.score.toFixed(9), m.content])).toEqual(
      exhaustive.slice(0, topK).map((m) => [m.memoryId, m.score.toFixed(9), m.content]),
    );
  }
});

test("the lexical leg sends the rows of its best 2 × top_k hits; a result past them still has its row", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  // Ten memories with the query's words and one other word each: the same BM25, told apart by their cosines.
  const others = ["gull", "sand", "tide", "shell", "dune", "kelp", "crab", "reef", "pier", "buoy"];
  const stored = await rememberAll(
    key,
    ns.id,
    others.map((other, i) => ({ content: `Log ${i}: lighthouse keeper storm ${other}` })),
  );
  const request = { orgId: org.id, namespaceId: ns.id, query: "lighthouse keeper storm", topK: 2 };
  const { hits } = await lexicalLeg(request, 50);
  expect(hits).toHaveLength(10);
  const sent = hits.filter((hit) => hit.row !== null);
  expect(sent).toHaveLength(4);
  for (const hit of sent) expect(hit.row).toMatchObject({ id: hit.chunk_id, memory_id: hit.memory_id });
  // The query vector of a memory whose row the leg did not send puts it first: its row is fetched afterwards.
  const unsent = hits.find((hit) => hit.row === null)!;
  const target = stored.find((memory) => memory.id === unsent.memory_id)!.content;
  const found = await searchChunks({ ...request, queryVector: await embedQuery(org.id, target) });
  expect(found.map((m) => [m.memoryId, m.content])).toEqual([[unsent.memory_id, target], expect.anything()]);
  expect(found[0].createdAt).toBeInstanceOf(Date);
});

test("a lexical hit sharing fewer words than others but closer in meaning is scored with its cosine", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  await rememberAll(key, ns.id, [
    { content: "Apple stock: the orchard of quarterly harvest numbers pleased the company's investors." },
    { content: "Apple harvest season: we picked apples in the orchard all autumn." },
    { content: "Harvest of apples from the orchard trees, picked by hand each autumn." },
    { content: "The orchard apple harvest meeting agenda: budget, parking, minutes." },
    { content: "Fresh fruit picked from the orchard trees in autumn." },
    { content: "Apple harvest." },
    { content: "The cat slept on the warm windowsill." },
  ]);
  const request = { orgId: org.id, namespaceId: ns.id, query: "apple harvest in the orchard" };
  // Fewer memories than top_k: the cosine of every lexical hit is looked up.
  const everyCosine = await searchChunks({ ...request, topK: 10 });
  // The premise: the second by fused score shares fewer of the query's words than the third.
  expect(everyCosine[1].content).toBe("Apple harvest.");
  expect(everyCosine[1].lexical).toBeLessThan(everyCosine[2].lexical);
  for (const topK of [1, 2, 3, 5]) {
    const ranked = await searchChunks({ ...request, topK });
    expect(ranked.map((m) => [m.memoryId, m.score.toFixed(9), m.cosine.toFixed(9)])).toEqual(
      everyCosine.slice(0, topK).map((m) => [m.memoryId, m.score.toFixed(9), m.cosine.toFixed(9)]),
    );
  }
});

test("the cosine is looked up only for lexical hits scoring at least half the top_k-th memory's BM25", () => {
  const hit = (chunk: string, memory: string, bm25: number) => ({
    chunk_id: chunk,
    bm25,
    memory_id: memory,
  });
  // Memories by BM25: m1 (10), m2 (8, two chunks), m3 (6), m4 (3), m5 (2.9).
  const hits = [
    hit("c1", "m1", 10),
    hit("c2", "m2", 8),
    hit("c3", "m2", 7),
    hit("c4", "m3", 6),
    hit("c5", "m4", 3),
    hit("c6", "m5", 2.9),
  ];
  const result = { bm25Max: 12, hits, truncated: false, skippedBm25Max: 0, namespaceChunkCount: 6 };
  // top_k 3: the third memory (m3, 6) scores at least 3, so a hit under 3 cannot rank.
  expect(hitsThatCanRank(result, 3)).toEqual(["c1", "c2", "c3", "c4", "c5"]);
  expect(hitsThatCanRank(result, 1)).toEqual(["c1", "c2", "c3", "c4"]);
  // Fewer memories than top_k: every hit.
  expect(hitsThatCanRank(result, 10)).toEqual(["c1", "c2", "c3", "c4", "c5", "c6"]);
});

test(
  "a namespace past the common-term threshold with no term that common is searched through every term, " +
    "until writes may have made one common",
  async () => {
    const { org, key } = await createTenant();
    const ns = await createNamespace(key);
    // 40 notes, each with a word of its own; "zebra" in 10, "river" in 20: no term in more than the 30 chunks a
    // common term needs here (as set below).
    const note = (i: number, river: boolean) => ({
      content: `note${i}${i < 10 ? " zebra" : ""}${river ? " river" : ""}`,
    });
    await rememberAll(
      key,
      ns.id,
      Array.from({ length: 40 }, (_, i) => note(i, i % 2 === 0)),
    );
    const request = { orgId: org.id, namespaceId: ns.id, mode: "fulltext" as const, topK: 5, commonTermMinChunks: 30 };
    const skipping = { ...request, query: "zebra river" };
    // Unknown yet: the common-terms statement; no term is common, nothing is skipped.
    expect((await lexicalLeg(skipping, 5)).skippedBm25Max).toBe(0);
    await termSpreadSettled(ns.id);
    // 20 more notes, 16 with "river" (36 chunks): no measurement since, but the bound (20 + 20 added) is past 30.
    await rememberAll(
      key,
      ns.id,
      Array.from({ length: 20 }, (_, i) => note(40 + i, i < 16)),
    );
    // The search that sees the new count still ran the simple statement; the next one may skip "river".
    await lexicalLeg(skipping, 5);
    expect((await lexicalLeg(skipping, 5)).skippedBm25Max).toBeGreaterThan(0);
    await termSpreadSettled(ns.id);
    expect((await lexicalLeg(skipping, 5)).skippedBm25Max).toBeGreaterThan(0);
    // Every term read or the common one skipped, the same results.
    const scores = (results: Awaited<ReturnType<typeof searchChunks>>) =>
      results.map((m) => [m.memoryId, m.score.toFixed(9)]);
    expect(scores(await searchChunks(skipping))).toEqual(
      scores(await searchChunks({ ...skipping, commonTermMinChunks: undefined })),
    );
  },
);

test("a common query term is not read through when rarer ones find enough chunks, and scores the same", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  // "river" is in 46 memories (common past 30 chunks, as set below); "zebra" and "giraffe" in 30 each.
  const memories = Array.from({ length: 60 }, (_, i) => ({
    content: `Field note ${i}: a ${i < 30 ? "zebra" : "giraffe"} ${i % 3 ? "walked" : "drank"}${
      i % 4 === 3 ? "" : " by the river"
    }${i % 8 === 0 ? ", the wide river" : ""}.`,
  }));
  await rememberAll(key, ns.id, [...memories, { content: "The river, the river: the river flooded its valley." }]);
  const request = { orgId: org.id, namespaceId: ns.id, mode: "fulltext" as const, topK: 20 };
  const scores = (results: Awaited<ReturnType<typeof searchChunks>>) =>
    results.map((m) => [m.memoryId, m.score.toFixed(9)]);

  // The rarer terms find 60 chunks, more than the leg's 50: "river" is only added to their scores.
  const skipping = { ...request, query: "zebra giraffe river", commonTermMinChunks: 30 };
  expect((await lexicalLeg(skipping, 50)).skippedBm25Max).toBeGreaterThan(0);
  expect((await lexicalLeg({ ...skipping, commonTermMinChunks: undefined }, 50)).skippedBm25Max).toBe(0);
  const everyTerm = await searchChunks({ ...skipping, commonTermMinChunks: undefined });
  // "river" decides the order: without it, the shorter notes that do not have it would come first.
  expect(everyTerm.every((m) => m.content.includes("river"))).toBe(true);
  expect(scores(await searchChunks(skipping))).toEqual(scores(everyTerm));

  // "zebra" alone finds 30, fewer than 50: every term is read, and the river-only memory is found.
  const fewRarer = { ...skipping, query: "zebra river" };
  expect((await lexicalLeg(fewRarer, 50)).skippedBm25Max).toBe(0);
  const found = await searchChunks({ ...fewRarer, topK: 61 });
  expect(found.some((m) => m.content.startsWith("The river, the river"))).toBe(true);
  expect(scores(found)).toEqual(scores(await searchChunks({ ...fewRarer, topK: 61, commonTermMinChunks: undefined })));
});

test("each match names the query's words it has, from the lexical leg's term bits, in both statements", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  // A question of 40 words: the terms a chunk has travel as one bit per term, past any integer's width.
  const words = Array.from({ length: 40 }, (_, i) => `quill${i}x`);
  await rememberAll(key, ns.id, [
    { content: `A ledger: ${words[2]} and ${words[35]}, then ${words[39]}.` },
    { content: `A diary: ${words[0]} only.` },
    ...Array.from({ length: 6 }, (_, i) => ({ content: `Margin note ${i}: ${words[35]} common here.` })),
  ]);
  const query = words.join(" ");
  const request = { orgId: org.id, namespaceId: ns.id, query, mode: "fulltext" as const, topK: 10 };
  const termsByContent = (hits: Awaited<ReturnType<typeof searchChunks>>) =>
    Object.fromEntries(hits.map((m) => [m.content.split(":")[0], m.reasons.terms]));
  // With "quill35x" in 7 of 8 chunks common past 4 (the common-terms statement), and read through (the other).
  for (const commonTermMinChunks of [4, undefined]) {
    const found = termsByContent(await searchChunks({ ...request, commonTermMinChunks }));
    expect(found["A ledger"]).toEqual([words[2], words[35], words[39]]);
    expect(found["A diary"]).toEqual([words[0]]);
    expect(found["Margin note 3"]).toEqual([words[35]]);
  }
  // Cut at 2: the rarer terms find the ledger and the diary, and the common term's bits are OR-ed in after.
  const cut = await lexicalLeg({ ...request, commonTermMinChunks: 4 }, 2);
  expect(cut.skippedBm25Max).toBeGreaterThan(0);
  const termsOf = (content: string) => cut.hits.find((h) => h.row?.content.startsWith(content))?.terms.toSorted();
  expect(termsOf("A ledger")).toEqual([words[2], words[35], words[39]].sort());
  expect(termsOf("A diary")).toEqual([words[0]]);
});

test("of chunks with equal BM25, a lexical leg cut short keeps those of lowest id, in both statements", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  // Thirty notes of one length with the query's two words: one score for all of them.
  await rememberAll(
    key,
    ns.id,
    Array.from({ length: 30 }, (_, i) => ({ content: `Crate ${i + 10}: harbor crane lifted.` })),
  );
  const request = { orgId: org.id, namespaceId: ns.id, query: "harbor crane", mode: "fulltext" as const, topK: 5 };
  for (const commonTermMinChunks of [4, undefined]) {
    const every = await lexicalLeg({ ...request, commonTermMinChunks }, 50);
    expect(every.hits).toHaveLength(30);
    expect(new Set(every.hits.map((hit) => hit.bm25.toFixed(9))).size).toBe(1);
    const ids = every.hits.map((hit) => hit.chunk_id);
    expect(ids).toEqual(ids.toSorted());
    const cut = await lexicalLeg({ ...request, commonTermMinChunks }, 7);
    expect(cut.hits.map((hit) => hit.chunk_id)).toEqual(ids.slice(0, 7));
  }
});
