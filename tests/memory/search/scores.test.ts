// Recall's `score` is how likely a match is relevant (lib/memory/search/calibration.ts), on one scale for every
// query: a threshold means the same whatever was asked. And when the relevance floor leaves nothing for a where,
// who or when question, the closest memory holding a place, a person or a time is still listed.
import { expect, test } from "vitest";
import { api } from "../../helpers/api";
import { createNamespace, createTenant } from "../../helpers/fixtures";
import { rememberAll } from "../../helpers/memory";

interface Match {
  content: string;
  score: number;
  match_reasons: { terms: string[]; similarity: number | null; via: string };
}

async function recall(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/recall", { key, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as Match[];
}

const NOTES = [
  "Ada prefers jasmine tea.",
  "Ada works at a bakery.",
  "The staging server is rebooted every Sunday at 03:00 UTC.",
  "Our dog Biscuit needs a walk every morning before work.",
  "I am allergic to peanuts and carry an epinephrine pen everywhere.",
  "The quarterly report is due on the first Friday of March.",
];

async function tenantWithNotes() {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  await rememberAll(
    key,
    ns.id,
    NOTES.map((content) => ({ content })),
  );
  return { key, ns };
}

test("a memory with every word of the question scores high, one sharing a name low: one min_score", async () => {
  const { key, ns } = await tenantWithNotes();

  const exact = await recall(key, { namespace_id: ns.id, query: "When is the staging server rebooted?" });
  expect(exact[0].content).toBe(NOTES[2]);
  expect(exact[0].score).toBeGreaterThan(0.5);

  const oneWord = await recall(key, { namespace_id: ns.id, query: "What does Ada drink?" });
  expect(oneWord.map((m) => m.content).sort()).toEqual([NOTES[0], NOTES[1]].sort());
  for (const match of oneWord) expect(match.score).toBeLessThan(0.5);

  // Scores never rise down the list.
  for (const list of [exact, oneWord])
    for (let i = 1; i < list.length; i++) expect(list[i].score).toBeLessThanOrEqual(list[i - 1].score);

  // One threshold, two questions: the memory that answers passes, those that only share a name do not.
  for (const query of ["When is the staging server rebooted?", "What does Ada drink?"]) {
    const kept = await recall(key, { namespace_id: ns.id, query, min_score: 0.5 });
    expect(kept.map((m) => m.content)).toEqual(query.startsWith("When") ? [NOTES[2]] : []);
  }
}, 180_000); // the first test of the file waits for the embedding model to load

test("a score seen and sent back as min_score keeps its memory; every score is within 0 and 1", async () => {
  const { key, ns } = await tenantWithNotes();
  const everything = await recall(key, { namespace_id: ns.id, query: "walk the dog every morning", min_score: 0 });
  expect(everything.length).toBeGreaterThan(2);
  for (const match of everything) {
    expect(match.score).toBeGreaterThan(0);
    expect(match.score).toBeLessThanOrEqual(1);
  }
  const cut = await recall(key, {
    namespace_id: ns.id,
    query: "walk the dog every morning",
    min_score: everything[1].score,
  });
  expect(cut.map((m) => m.content)).toEqual(
    everything.filter((m) => m.score >= everything[1].score).map((m) => m.content),
  );
  expect(cut.length).toBeGreaterThanOrEqual(2);
});

test("a where-question sharing no word with the memory about it finds it; an unrelated one finds nothing", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const MARIA = "Maria moved to Lisbon in the spring of 2023 to work as a marine biologist.";
  await rememberAll(key, ns.id, [
    { content: MARIA },
    { content: "The quarterly report is due on the first Friday of March." },
    { content: "Our dog Biscuit needs a walk every morning before work." },
  ]);
  const found = await recall(key, { namespace_id: ns.id, query: "Which city does she live in now?" });
  expect(found.map((m) => m.content)).toEqual([MARIA]);
  expect(found[0].match_reasons).toMatchObject({ terms: [], via: "meaning" });
  expect(found[0].score).toBeLessThan(0.5);

  const asked = await api("POST", "/ask", {
    key,
    body: { namespace_id: ns.id, query: "Which city does she live in now?" },
  });
  expect(asked.status).toBe(200);
  expect(asked.body.data.answer).toMatch(/Lisbon/);

  // Not a where, who, when or how-many question: nothing plausible, nothing listed.
  expect(await recall(key, { namespace_id: ns.id, query: "What is the capital of Australia?" })).toEqual([]);
});

test("a how-far question sharing no word with the memory about it finds the one holding a number", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const RUN = "Tom ran 42 kilometres last Sunday.";
  await rememberAll(key, ns.id, [
    { content: "Maria is raising two daughters and a son on her own." },
    { content: RUN },
    { content: "The quarterly report is due at the end of March." },
    { content: "Our dog Biscuit needs a walk every morning before work." },
  ]);
  // The local embedder puts the question at 0.25 from the run: below the floor, and only it holds a distance.
  const found = await recall(key, { namespace_id: ns.id, query: "How far did he go?" });
  expect(found.map((m) => m.content)).toEqual([RUN]);
  expect(found[0].match_reasons).toMatchObject({ terms: [], via: "meaning" });
  expect(found[0].score).toBeLessThan(0.5);
});
