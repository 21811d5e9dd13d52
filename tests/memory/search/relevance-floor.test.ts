import { expect, test } from "vitest";
import { api } from "../../helpers/api";
import { createNamespace, createTenant } from "../../helpers/fixtures";
import { rememberAll } from "../../helpers/memory";

interface Match {
  memory_id: string;
  content: string;
  score: number;
  role: string | null;
  match_reasons: { terms: string[]; similarity: number | null; via: string };
}

async function recall(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/recall", { key, body });
  if (response.status !== 200) throw new Error(`recall failed: ${JSON.stringify(response.body)}`);
  return response.body.data as Match[];
}

const DOG = "Our dog Biscuit needs a walk every morning before work.";
const ALLERGY = "I am allergic to peanuts and carry an epinephrine pen everywhere.";
const BAKERY = "The bakery on Elm Street sells sourdough loaves on Saturdays.";

/** Each word the match says it has is in its text (compared by stem, so a word of the query may be inflected). */
function termsAreInContent(match: Match) {
  const words = new Set(match.content.toLowerCase().match(/[\p{L}\p{N}]+/gu));
  for (const term of match.match_reasons.terms) {
    const stem = term.toLowerCase().slice(0, Math.max(3, term.length - 2));
    expect(
      [...words].some((word) => word.startsWith(stem)),
      `"${term}" in "${match.content}"`,
    ).toBe(true);
  }
}

test("after the only dog memory is forgotten, “dog” recalls nothing; min_score 0 still lists the rest", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const [dog] = await rememberAll(key, ns.id, [{ content: DOG }, { content: ALLERGY }, { content: BAKERY }]);

  const before = await recall(key, { namespace_id: ns.id, query: "dog" });
  expect(before.map((m) => m.content)).toEqual([DOG]);
  expect(before[0].match_reasons.terms).toEqual(["dog"]);
  expect(before[0].match_reasons.via).toMatch(/^words/);

  const forgot = await api("POST", "/forget", { key, body: { namespace_id: ns.id, memory_ids: [dog.id] } });
  expect(forgot.status).toBe(200);

  // Nothing left shares a word with "dog", and nothing is close enough in meaning to count.
  expect(await recall(key, { namespace_id: ns.id, query: "dog" })).toEqual([]);
  // The caller can still ask for everything scoring above 0, and is told why each one is there.
  const everything = await recall(key, { namespace_id: ns.id, query: "dog", min_score: 0 });
  expect(everything.map((m) => m.content).sort()).toEqual([ALLERGY, BAKERY].sort());
  for (const match of everything) {
    expect(match.score).toBeGreaterThan(0);
    expect(match.score).toBeLessThan(0.1);
    expect(match.match_reasons).toMatchObject({ terms: [], via: "meaning" });
    expect(match.match_reasons.similarity!).toBeLessThan(0.3);
  }
}, 180_000); // the first test of the file waits for the embedding model to load

test("a query that shares words lists only memories with evidence, each with the words it has", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  await rememberAll(key, ns.id, [
    { content: DOG },
    { content: ALLERGY },
    { content: BAKERY },
    { content: "Peanut butter cookies from the bakery are my weakness, allergy or not." },
  ]);
  const matches = await recall(key, { namespace_id: ns.id, query: "peanut allergy bakery" });
  // The dog memory shares no word and is not close in meaning: below the floor.
  expect(matches.map((m) => m.content)).not.toContain(DOG);
  expect(matches[0].content).toContain("Peanut butter cookies");
  expect(matches[0].match_reasons.terms).toEqual(["peanut", "allergy", "bakery"]);
  for (const match of matches) {
    expect(match.score).toBeGreaterThan(0);
    expect(match.match_reasons.terms.length).toBeGreaterThan(0);
    expect(match.match_reasons.via).toMatch(/^words/);
    expect(match.match_reasons.similarity).toBeGreaterThanOrEqual(0);
    expect(match.match_reasons.similarity).toBeLessThanOrEqual(1);
    termsAreInContent(match);
  }
  // "allergic" and "peanuts" share the stems of "allergy" and "peanut".
  const allergy = matches.find((m) => m.content === ALLERGY)!;
  expect(allergy.match_reasons.terms).toEqual(["peanut"]);

  // min_score 0 adds the dog memory, with no word of the query; never a match scored 0.
  const everything = await recall(key, { namespace_id: ns.id, query: "peanut allergy bakery", min_score: 0 });
  const dog = everything.find((m) => m.content === DOG)!;
  expect(dog.match_reasons.terms).toEqual([]);
  expect(dog.match_reasons.via).toBe("meaning");
  expect(everything.every((m) => m.score > 0)).toBe(true);
});

test("a paraphrase close in meaning is kept and says it matched by meaning", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  await rememberAll(key, ns.id, [{ content: "My puppy chews every shoe in the house." }, { content: BAKERY }]);
  const matches = await recall(key, { namespace_id: ns.id, query: "dog" });
  expect(matches.map((m) => m.content)).toEqual(["My puppy chews every shoe in the house."]);
  expect(matches[0].match_reasons.terms).toEqual([]);
  expect(matches[0].match_reasons.via).toBe("meaning");
  expect(matches[0].match_reasons.similarity).toBeGreaterThanOrEqual(0.3);
});

test("a conversation turn found through the turn before it says so", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const remembered = await api("POST", "/remember", {
    key,
    body: {
      namespace_id: ns.id,
      session_id: "saturday",
      messages: [
        { role: "Jordan", content: "Did you end up going to the pottery class on Saturday?" },
        { role: "Sam", content: "Yes! I made a lopsided bowl and loved every minute." },
      ],
    },
  });
  expect(remembered.status).toBe(201);
  const matches = await recall(key, { namespace_id: ns.id, query: "pottery class" });
  expect(matches.map((m) => m.role)).toEqual(["Jordan", "Sam"]);
  expect(matches[0].match_reasons.terms).toEqual(["pottery", "class"]);
  expect(matches[1].match_reasons.terms).toEqual([]);
  expect(matches[1].match_reasons.via).toBe("conversation context");
});

test("the explicit min_score keeps its meaning: every match scoring at least it", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  await rememberAll(key, ns.id, [{ content: DOG }, { content: ALLERGY }, { content: BAKERY }]);
  const everything = await recall(key, { namespace_id: ns.id, query: "walk the dog", min_score: 0 });
  expect(everything).toHaveLength(3);
  const cut = await recall(key, { namespace_id: ns.id, query: "walk the dog", min_score: everything[1].score });
  expect(cut.map((m) => m.memory_id)).toEqual(everything.slice(0, 2).map((m) => m.memory_id));
});
