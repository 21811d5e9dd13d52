import { expect, test } from "vitest";
import { DATE_FOCUS } from "@/lib/memory/search/ranking";
import { searchChunks } from "@/lib/memory/search/search";
import { dateRange, queryEntities } from "@/lib/memory/search/search-entities";
import { api } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";

// Recall's entity steps (lib/memory/search/search.ts withEntitySteps): the entities a query names, the second hop
// through entities the best results share, and the dates a query names.

interface Match {
  memory_id: string;
  content: string;
  score: number;
}

async function remember(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/remember", { key, body });
  if (response.status !== 201) throw new Error(`remember failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; content: string }[];
}

async function recall(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/recall", { key, body });
  if (response.status !== 200) throw new Error(`recall failed: ${JSON.stringify(response.body)}`);
  return response.body.data as Match[];
}

/** Filler that shares no name with the memories under test, so that the names tested are rare. */
const FILLER = [
  "The kitchen tap has been dripping since the weekend.",
  "We should repaint the fence before the rain starts.",
  "The library closes early on public holidays.",
  "My phone battery dies before lunch these days.",
  "The bakery on the corner sells the best sourdough.",
  "I finally sorted the spare room and the old boxes.",
];

test("a query naming an entity ranks the memory that mentions it higher than without the step", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  const [lisbon] = await remember(key, {
    namespace_id: ns.id,
    memories: [
      { content: "Booked the flights to Lisbon for the design conference." },
      { content: "The design conference flights were booked by the office, flights and hotel together." },
      ...FILLER.map((content) => ({ content })),
    ],
  });
  const request = { orgId: org.id, namespaceId: ns.id, query: "When are the flights to Lisbon?", topK: 5 };
  const boosted = await searchChunks({ ...request, entityBoost: 0.5 });
  const without = await searchChunks({ ...request, entityBoost: 0 });
  const scoreOf = (matches: typeof boosted, id: string) => matches.find((m) => m.memoryId === id)?.score ?? 0;
  expect(boosted[0].memoryId).toBe(lisbon.id);
  expect(scoreOf(boosted, lisbon.id)).toBeGreaterThan(scoreOf(without, lisbon.id));
  // A memory not naming Lisbon keeps its score.
  const other = without.find((m) => m.memoryId !== lisbon.id)!;
  expect(scoreOf(boosted, other.memoryId)).toBe(other.score);
  expect(queryEntities(request.query, new Date()).keys).toContain("lisbon");
}, 180_000); // the first test of the file waits for the embedding model to load

test("the second hop brings in a memory sharing a rare name with the best result, and no other", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  const [adopted, hose] = await remember(key, {
    namespace_id: ns.id,
    memories: [
      { content: "Priya adopted a beagle named Biscuit from the shelter." },
      { content: "Biscuit chewed through the garden hose again." },
      { content: "The garden hose needs replacing anyway." },
      ...FILLER.map((content) => ({ content })),
    ],
  });
  const request = { orgId: org.id, namespaceId: ns.id, query: "What did Priya adopt?", topK: 5 };
  const withoutHop = await searchChunks({ ...request, entityHop: 0 });
  expect(withoutHop[0].memoryId).toBe(adopted.id);
  expect(withoutHop.map((m) => m.memoryId)).not.toContain(hose.id);
  const withHop = await searchChunks({ ...request, entityHop: 0.5 });
  expect(withHop.map((m) => m.memoryId)).toContain(adopted.id);
  expect(withHop.map((m) => m.memoryId)).toContain(hose.id);
  // The hose memory that names no Biscuit is not linked.
  expect(withHop.map((m) => m.content)).not.toContain("The garden hose needs replacing anyway.");
});

test("a date in the query ranks what happened then first; a date nothing matches changes nothing", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  const [may, february] = await remember(key, {
    namespace_id: ns.id,
    memories: [
      { content: "Went hiking on the ridge trail with Sam.", occurred_at: "2023-05-14T10:00:00Z" },
      { content: "Went hiking on the ridge trail with Sam again.", occurred_at: "2024-02-03T10:00:00Z" },
    ],
  });
  for (const [query, first] of [
    ["Where did I go hiking in May 2023?", may.id],
    ["Where did I go hiking in February 2024?", february.id],
  ]) {
    const matches = await recall(key, { namespace_id: ns.id, query });
    expect(matches.map((m) => m.memory_id)).toEqual([first, first === may.id ? february.id : may.id]);
    // The other keeps DATE_FOCUS of its ranking score (within a word's difference in length).
    const ranked = await searchChunks({ orgId: org.id, namespaceId: ns.id, query, topK: 10 });
    expect(ranked[1].score).toBeLessThan(ranked[0].score * DATE_FOCUS * 1.2);
  }
  // No memory happened in 1999: nothing is focused, both score about alike.
  const none = await recall(key, { namespace_id: ns.id, query: "Where did I go hiking in 1999?" });
  expect(none).toHaveLength(2);
  expect(none[1].score).toBeGreaterThan(none[0].score * 0.8);
  const unfocused = await searchChunks({
    orgId: org.id,
    namespaceId: ns.id,
    query: "Where did I go hiking in 1999?",
    topK: 10,
  });
  expect(unfocused[1].score).toBeGreaterThan(unfocused[0].score * 0.8);
  expect(dateRange("2023-summer")).toEqual({
    key: "2023-summer",
    from: new Date("2023-06-01T00:00:00Z"),
    to: new Date("2023-09-01T00:00:00Z"),
  });
});

test("a query's dates alone are the dates found with its names, without naming anyone", () => {
  const now = new Date("2026-03-15T12:00:00Z");
  for (const query of [
    "What did Caroline tell Melanie in May 2023 about the LGBTQ support group?",
    "Did Jon visit Paris last summer or in 2024?",
    "IL-6 levels in 50% of patients", // digits, no date
    "What happened yesterday at Google?",
  ]) {
    const full = queryEntities(query, now);
    const dates = queryEntities(query, now, false);
    expect(dates).toEqual({ keys: [], dates: full.dates });
  }
  expect(queryEntities("Did Jon visit Paris last summer or in 2024?", now, false).dates.map((d) => d.key)).toEqual([
    "2025-summer",
    "2024",
  ]);
});

test("entity steps never bring in a memory the key's scopes cannot see", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  const [seen, linkedSeen, hidden] = await remember(key, {
    namespace_id: ns.id,
    memories: [
      { content: "Priya adopted a beagle named Biscuit from the shelter.", scopes: { user: "a" } },
      { content: "Biscuit dug up the tulips this morning.", scopes: { user: "a" } },
      { content: "Biscuit chewed through the garden hose again.", scopes: { user: "b" } },
      ...FILLER.map((content) => ({ content, scopes: { user: "a" } })),
    ],
  });
  // Unscoped, the hop reaches both memories naming Biscuit.
  const request = { orgId: org.id, namespaceId: ns.id, query: "What did Priya adopt?", topK: 10 };
  const open = await searchChunks({ ...request, entityHop: 1, entityBoost: 1 });
  expect(open.map((m) => m.memoryId)).toEqual(expect.arrayContaining([seen.id, linkedSeen.id, hidden.id]));
  // As recall runs for a key scoped to user a: the hidden one is never reached.
  const scoped = await searchChunks({
    ...request,
    scopes: { user: "a" },
    statisticsScopes: { user: "a" },
    entityHop: 1,
    entityBoost: 1,
  });
  expect(scoped.map((m) => m.memoryId)).toEqual(expect.arrayContaining([seen.id, linkedSeen.id]));
  expect(scoped.map((m) => m.memoryId)).not.toContain(hidden.id);
  // Through the API with a key scoped to user a, naming Biscuit itself.
  const scopedKey = await createKey(org.id, { scopes: { user: "a" }, namespaceIds: [ns.id] });
  for (const query of ["What did Priya adopt?", "What did Biscuit do?"]) {
    const matches = await recall(scopedKey.secret, { namespace_id: ns.id, query, top_k: 20 });
    expect(matches.length).toBeGreaterThan(0);
    expect(matches.map((m) => m.memory_id)).not.toContain(hidden.id);
  }
});
