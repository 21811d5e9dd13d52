import { expect, test } from "vitest";
import { searchChunks } from "@/lib/memory/search";
import { createNamespace, createTenant } from "./helpers/fixtures";
import { rememberAll } from "./helpers/memory";

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
    expect(cut.map((m) => [m.memoryId, m.score.toFixed(9)])).toEqual(exhaustive.slice(0, topK).map((m) => [m.memoryId, m.score.toFixed(9)]));
  }
});
