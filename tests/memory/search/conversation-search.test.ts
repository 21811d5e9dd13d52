import { expect, test } from "vitest";
import { db } from "@/lib/db";
import { sentencesOf } from "@/lib/memory/store/chunking";
import {
  FEEDBACK_FLOOR,
  FEEDBACK_WEIGHT,
  namedRole,
  SPEAKER_FOCUS,
  TURN_PRIOR,
  turnPrior,
  withFeedback,
  withNeighbourEvidence,
  withTurnPrior,
} from "@/lib/memory/search/ranking";
import { searchChunks } from "@/lib/memory/search/search";
import { api } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";
import { rememberAll } from "../../helpers/memory";
import { Prisma } from "@/lib/generated/prisma/client";

interface Match {
  memory_id: string;
  content: string;
  score: number;
  role: string | null;
}

async function rememberTurns(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/remember", { key, body });
  if (response.status !== 201) throw new Error(`remember failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; content: string }[];
}

async function recall(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/recall", { key, body });
  if (response.status !== 200) throw new Error(`recall failed: ${JSON.stringify(response.body)}`);
  return response.body.data as Match[];
}

const QUESTION = { role: "Jordan", content: "Did you end up going to the pottery class on Saturday?" };
const ANSWER = { role: "Sam", content: "Yes! I made a lopsided bowl and loved every minute." };
/** Turns sharing a word with "pottery class", each between two turns about something else. */
const OTHER_DAY = [
  { role: "Sam", content: "My yoga class got cancelled again this week." },
  { role: "Jordan", content: "That's annoying, the weather has been awful too." },
  { role: "Sam", content: "The chemistry class exam is next Thursday." },
  { role: "Jordan", content: "Good luck, you have prepared well for it." },
  { role: "Sam", content: "Pottery shops downtown are closing early for the holidays." },
  { role: "Jordan", content: "Let's grab dinner after work on Friday." },
  { role: "Sam", content: "The evening class on photography starts in May." },
];

test("the answer to a question asked in the turn before it is found, though it shares no word with it", async () => {
  const { key } = await createTenant();
  const conversation = await createNamespace(key);
  await rememberTurns(key, { namespace_id: conversation.id, session_id: "saturday", messages: [QUESTION, ANSWER] });
  await rememberTurns(key, { namespace_id: conversation.id, session_id: "other-day", messages: OTHER_DAY });
  const matches = await recall(key, { namespace_id: conversation.id, query: "pottery class", top_k: 3 });
  expect(matches[0].content).toBe(QUESTION.content);
  expect(matches.map((m) => m.content)).toContain(ANSWER.content);

  // The same sentences as plain memories: the answer, sharing no word with the query, comes after every
  // memory that does.
  const plain = await createNamespace(key);
  await rememberAll(
    key,
    plain.id,
    [QUESTION, ANSWER, ...OTHER_DAY].map((turn) => ({ content: turn.content })),
  );
  const plainMatches = await recall(key, { namespace_id: plain.id, query: "pottery class", top_k: 3 });
  expect(plainMatches.map((m) => m.content)).not.toContain(ANSWER.content);
}, 180_000); // the first test of the file waits for the embedding model to load

test("a plain memory scores the same with or without its neighbours' evidence, beside conversations too", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  await rememberAll(key, ns.id, [
    { content: "The pottery class meets every Saturday morning at the community centre." },
    { content: "Our chemistry class exam moved to Thursday." },
    { content: "I bought a new bowl for the kitchen." },
  ]);
  const request = { orgId: org.id, namespaceId: ns.id, query: "pottery class bowl", topK: 10 };
  const scored = (matches: Awaited<ReturnType<typeof searchChunks>>) =>
    matches.map((m) => [m.memoryId, m.score, m.bm25, m.cosine]);
  const withoutNeighbours = scored(await searchChunks({ ...request, neighbourShare: 0 }));
  expect(withoutNeighbours.length).toBe(3);
  expect(scored(await searchChunks(request))).toEqual(withoutNeighbours);
  const viaApi = await recall(key, { namespace_id: ns.id, query: "pottery class bowl" });
  expect(viaApi.map((m) => m.memory_id)).toEqual(withoutNeighbours.map(([id]) => id));

  // A conversation in the same namespace changes the statistics (more chunks), not how plain memories score.
  await rememberTurns(key, { namespace_id: ns.id, session_id: "saturday", messages: [QUESTION, ANSWER] });
  const plainIds = new Set(withoutNeighbours.map(([id]) => id));
  const plainOnly = (matches: Awaited<ReturnType<typeof searchChunks>>) =>
    scored(matches.filter((m) => plainIds.has(m.memoryId)));
  const mixedWithout = plainOnly(await searchChunks({ ...request, neighbourShare: 0 }));
  expect(mixedWithout.length).toBe(3);
  expect(plainOnly(await searchChunks(request))).toEqual(mixedWithout);
});

test("the neighbours' evidence is an or of the turn's own and a share of its better neighbour's", () => {
  const turn = (memoryId: string, position: number | null, score: number, sessionId: string | null = "s") => ({
    memoryId,
    chunkId: `chunk-${memoryId}`,
    sessionId: position === null ? null : sessionId,
    position,
    score,
  });
  const ranked = withNeighbourEvidence(
    [turn("question", 0, 0.6), turn("answer", 1, 0.1), turn("later", 2, 0), turn("plain", null, 0.3)],
    0.5,
  );
  const scoreOf = (id: string) => ranked.find((m) => m.memoryId === id)!.score;
  expect(scoreOf("answer")).toBeCloseTo(1 - (1 - 0.1) * (1 - 0.5 * 0.6), 6);
  expect(scoreOf("question")).toBeCloseTo(1 - (1 - 0.6) * (1 - 0.5 * 0.1), 6);
  expect(scoreOf("later")).toBeCloseTo(0.5 * 0.1, 6);
  expect(scoreOf("plain")).toBe(0.3);
  expect(ranked.map((m) => m.memoryId)).toEqual(["question", "answer", "plain", "later"]);
  // Another session's turn at the next position is no neighbour.
  const apart = withNeighbourEvidence([turn("a", 0, 0.6, "s1"), turn("b", 1, 0.1, "s2")], 0.5);
  expect(apart.find((m) => m.memoryId === "b")!.score).toBe(0.1);
});

test("a turn outside the key's scopes, or expired, lends its neighbour no evidence", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  const [question] = await rememberTurns(key, {
    namespace_id: ns.id,
    session_id: "saturday",
    scopes: { team: "red" },
    messages: [QUESTION],
  });
  const [answer] = await rememberTurns(key, {
    namespace_id: ns.id,
    session_id: "saturday",
    scopes: { team: "blue" },
    messages: [ANSWER],
  });
  const scoreOfAnswer = (matches: Match[]) => matches.find((m) => m.memory_id === answer.id)?.score;
  // The premise: seen by a key that sees both, the answer borrows from the question (listed, ranked higher).
  const unscoped = await recall(key, { namespace_id: ns.id, query: "pottery class" });
  expect(scoreOfAnswer(unscoped)).toBeDefined();
  // min_score 0: the answer shares no word and is not close in meaning, below the default floor on its own.
  const own = { orgId: org.id, namespaceId: ns.id, query: "pottery class", topK: 10, minScore: 0 };
  const ownOnly = await searchChunks({ ...own, neighbourShare: 0 });
  const lent = await searchChunks(own);
  const ranking = (matches: typeof ownOnly) => matches.find((m) => m.memoryId === answer.id)!.score;
  expect(ranking(lent)).toBeGreaterThan(ranking(ownOnly));

  const blue = await createKey(org.id, { scopes: { team: "blue" }, namespaceIds: [ns.id] });
  // Without the question it may not see, the answer has no evidence: the relevance floor lists nothing.
  expect(await recall(blue.secret, { namespace_id: ns.id, query: "pottery class" })).toEqual([]);
  const blueMatches = await recall(blue.secret, { namespace_id: ns.id, query: "pottery class", min_score: 0 });
  expect(blueMatches.map((m) => m.memory_id)).toEqual([answer.id]);
  const blueOwn = await searchChunks({
    orgId: org.id,
    namespaceId: ns.id,
    query: "pottery class",
    topK: 10,
    scopes: { team: "blue" },
    statisticsScopes: { team: "blue" },
    neighbourShare: 0,
    minScore: 0,
  });
  expect(scoreOfAnswer(blueMatches)).toBe(blueOwn[0].relevance);

  // Expired (not yet swept): the question is gone for recall, and so is what it lent.
  await (
    await db()
  ).$executeRaw(
    Prisma.sql`UPDATE memory_chunks SET expires_at = now() - interval '1 second' WHERE memory_id = ${question.id}`,
  );
  await (
    await db()
  ).$executeRaw(Prisma.sql`UPDATE memories SET expires_at = now() - interval '1 second' WHERE id = ${question.id}`);
  expect(await recall(key, { namespace_id: ns.id, query: "pottery class" })).toEqual([]);
  const afterExpiry = await recall(key, { namespace_id: ns.id, query: "pottery class", min_score: 0 });
  expect(afterExpiry.map((m) => m.memory_id)).toEqual([answer.id]);
  const ownAfterExpiry = await searchChunks({
    orgId: org.id,
    namespaceId: ns.id,
    query: "pottery class",
    topK: 10,
    neighbourShare: 0,
    minScore: 0,
  });
  expect(scoreOfAnswer(afterExpiry)).toBe(ownAfterExpiry[0].relevance);
});

test("a turn is found by the name of who said it", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  await rememberTurns(key, {
    namespace_id: ns.id,
    session_id: "monday",
    messages: [{ role: "Melanie", content: "I've been researching hiking trails near the lake." }],
  });
  await rememberTurns(key, {
    namespace_id: ns.id,
    session_id: "tuesday",
    messages: [{ role: "Caroline", content: "I've been researching adoption agencies." }],
  });
  const matches = await recall(key, { namespace_id: ns.id, query: "What did Caroline research?" });
  expect(matches.map((m) => [m.role, m.content])).toEqual([
    ["Caroline", "I've been researching adoption agencies."],
    ["Melanie", "I've been researching hiking trails near the lake."],
  ]);
  // The match shows what was said; the name is the turn's role, not part of its content.
  expect(matches[0].content).not.toContain("Caroline");
});

test("when the lexical leg is cut at its limit, neighbour evidence ranks as in a search that was not cut", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  // 60 turns share "apple" with the query: the lexical leg (50 candidates for top_k 3) is cut short, so the
  // neighbours it left out may share words with the query and must be scored with their own BM25.
  await rememberTurns(key, {
    namespace_id: ns.id,
    session_id: "orchard",
    messages: Array.from({ length: 60 }, (_, i) => ({
      role: "Sam",
      content: `Apple ${i}: the orchard had another good week of picking and sorting.`,
    })),
  });
  await rememberTurns(key, {
    namespace_id: ns.id,
    session_id: "saturday",
    messages: [QUESTION, { role: "Sam", content: "Yes! Saturday was great, I made a lopsided bowl." }],
  });
  const request = { orgId: org.id, namespaceId: ns.id, query: "apple pottery class Saturday" };
  const cut = await searchChunks({ ...request, topK: 3 });
  const whole = await searchChunks({ ...request, topK: 100 }); // 200 candidates per leg: nothing is cut
  expect(cut.map((m) => [m.memoryId, m.score, m.bm25])).toEqual(
    whole.slice(0, 3).map((m) => [m.memoryId, m.score, m.bm25]),
  );
  expect(cut.map((m) => m.content)).toContain("Yes! Saturday was great, I made a lopsided bowl.");
});

test("a question naming one speaker is answered first by what that speaker said", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  const [, jordansTrip, , samsTrip] = await rememberTurns(key, {
    namespace_id: ns.id,
    session_id: "trips",
    messages: [
      { role: "Jordan", content: "Morning Sam! How was the long weekend?" },
      { role: "Jordan", content: "We camped by the lighthouse." },
      { role: "Sam", content: "Nice, Jordan! Sounds lovely." },
      { role: "Sam", content: "I went camping in the desert last spring, under more stars than I have ever seen." },
    ],
  });
  // The speaker focus alone: the steps after it (what a turn tells, the feedback) are measured on their own.
  const request = {
    orgId: org.id,
    namespaceId: ns.id,
    topK: 4,
    turnPrior: { asking: 1, short: 1 },
    feedbackWeight: 0,
  };
  const ranked = async (query: string, speakerFocus?: number) =>
    (await searchChunks({ ...request, query, speakerFocus })).map((m) => [m.memoryId, m.score] as const);

  // Jordan's short turn matches "camp" better; asked about Sam, Sam's own turn comes first.
  const aboutSam = await ranked("Where has Sam gone camping?");
  expect(aboutSam[0][0]).toBe(samsTrip.id);
  const unfocused = await ranked("Where has Sam gone camping?", 1);
  expect(unfocused[0][0]).toBe(jordansTrip.id);
  // Another speaker's turn keeps SPEAKER_FOCUS of its score; the named speaker's turns keep theirs.
  const scoreIn = (list: (readonly [string, number])[], id: string) => list.find(([memoryId]) => memoryId === id)![1];
  expect(scoreIn(aboutSam, jordansTrip.id)).toBeCloseTo(SPEAKER_FOCUS * scoreIn(unfocused, jordansTrip.id), 5);
  expect(scoreIn(aboutSam, samsTrip.id)).toBe(scoreIn(unfocused, samsTrip.id));

  // Through the API, in any case; naming both speakers, or a word that is no speaker's, focuses on nobody.
  const viaApi = await recall(key, { namespace_id: ns.id, query: "where did jordan camp", top_k: 1 });
  expect(viaApi[0].memory_id).toBe(jordansTrip.id);
  expect(await ranked("Where have Sam and Jordan camped?")).toEqual(
    await ranked("Where have Sam and Jordan camped?", 1),
  );
  expect(await ranked("Where has Samantha camped?")).toEqual(await ranked("Where has Samantha camped?", 1));
});

test("a role is named by a whole word, whatever its case, and only one role at a time", () => {
  const roles = ["Caroline", "Mel", "user", "C++ bot"];
  expect(namedRole("What did Caroline research?", roles)).toBe("caroline");
  expect(namedRole("what are caroline's hobbies", roles)).toBe("caroline");
  expect(namedRole("What did Melanie paint?", roles)).toBeNull(); // "Mel" is not a word of it
  expect(namedRole("Did Caroline and Mel meet?", roles)).toBeNull();
  expect(namedRole("What did the user ask the C++ bot?", roles)).toBeNull();
  expect(namedRole("ask the c++ bot", roles)).toBe("c++ bot");
  expect(namedRole("users of the service", roles)).toBeNull();
  expect(namedRole("anything", [])).toBeNull();
});

test("a turn that tells something ranks above one that only asks or says little, matching the same words", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  const [asking] = await rememberTurns(key, {
    namespace_id: ns.id,
    session_id: "monday",
    messages: [
      { role: "Sam", content: "Did you like the pottery class? What did you make there, and will you go back?" },
      ...OTHER_DAY.slice(0, 2),
    ],
  });
  const [telling] = await rememberTurns(key, {
    namespace_id: ns.id,
    session_id: "tuesday",
    messages: [
      { role: "Jordan", content: "I went to my pottery class on Saturday and made a small blue bowl for my mother." },
      ...OTHER_DAY.slice(2, 4),
    ],
  });
  const request = { orgId: org.id, namespaceId: ns.id, query: "pottery class", topK: 10, feedbackWeight: 0 };
  const order = async (turnPrior?: { asking: number; short: number }) =>
    (await searchChunks({ ...request, turnPrior }))
      .filter((m) => m.memoryId === asking.id || m.memoryId === telling.id)
      .map((m) => [m.memoryId, m.score] as const);
  const without = await order({ asking: 1, short: 1 });
  expect(without.map(([id]) => id)).toEqual([asking.id, telling.id]);
  const withPrior = await order();
  expect(withPrior.map(([id]) => id)).toEqual([telling.id, asking.id]);
  // The asking turn keeps TURN_PRIOR.asking of its score; the telling one keeps all of it.
  expect(withPrior[1][1]).toBeCloseTo(without[0][1] * TURN_PRIOR.asking, 5);
  expect(withPrior[0][1]).toBe(without[1][1]);
  const viaApi = await recall(key, { namespace_id: ns.id, query: "pottery class", top_k: 1 });
  expect(viaApi[0].memory_id).toBe(telling.id);
});

test("what a turn tells is read from its sentences: mostly questions, or fewer than twelve words", () => {
  expect(turnPrior(sentencesOf("Cool! What type of music do you play?"))).toBeCloseTo(
    TURN_PRIOR.asking * TURN_PRIOR.short,
    6,
  );
  expect(turnPrior(sentencesOf("Thanks, Melanie! Your kind words mean a lot."))).toBe(TURN_PRIOR.short);
  expect(
    turnPrior(sentencesOf("Did you see it? I went camping with my kids in the mountains last weekend, it was lovely.")),
  ).toBe(TURN_PRIOR.asking);
  expect(
    turnPrior(sentencesOf("I went camping with my kids in the mountains last weekend. Have you been there?")),
  ).toBe(TURN_PRIOR.asking);
  expect(
    turnPrior(sentencesOf("I went camping with my kids last weekend. It rained, but we loved every minute of it.")),
  ).toBe(1);
  // A plain memory is no turn: it keeps its score whatever it says.
  const ranked = withTurnPrior(
    [
      { chunkId: "a", sessionId: null, position: null, score: 0.5 },
      { chunkId: "b", sessionId: "s", position: 0, score: 0.6 },
    ],
    () => 0.5,
  );
  expect(ranked.map((m) => [m.chunkId, m.score])).toEqual([
    ["a", 0.5],
    ["b", 0.3],
  ]);
});

test("feedback lifts turns like the best results, an or with their own score; plain memories keep theirs", async () => {
  const turn = (chunkId: string, score: number, sessionId: string | null = "s") => ({
    chunkId,
    sessionId,
    position: sessionId === null ? null : 0,
    score,
  });
  const similarity = new Map([
    ["close", 0.8],
    ["far", 0.2],
    ["plain", 0.9],
    ["zero", 0.9],
  ]);
  const lifted = withFeedback(
    [turn("close", 0.2), turn("far", 0.25), turn("plain", 0.22, null), turn("zero", 0)],
    similarity,
    FEEDBACK_WEIGHT,
  );
  const scoreOf = (id: string) => lifted.find((m) => m.chunkId === id)!.score;
  expect(scoreOf("close")).toBeCloseTo(1 - (1 - 0.2) * (1 - FEEDBACK_WEIGHT * (0.8 - FEEDBACK_FLOOR)), 6);
  expect(scoreOf("far")).toBe(0.25);
  expect(scoreOf("plain")).toBe(0.22);
  expect(scoreOf("zero")).toBe(0);
  expect(lifted.map((m) => m.chunkId)).toEqual(["far", "close", "plain", "zero"]);

  // Through the search: a turn's score only grows; plain memories beside the conversation score as without it.
  const { org, key } = await createTenant();
  const ns = await createNamespace(key);
  await rememberAll(key, ns.id, [
    { content: "The pottery class meets every Saturday morning at the community centre." },
    { content: "I bought a new bowl for the kitchen." },
  ]);
  await rememberTurns(key, { namespace_id: ns.id, session_id: "saturday", messages: [QUESTION, ANSWER] });
  await rememberTurns(key, { namespace_id: ns.id, session_id: "other-day", messages: OTHER_DAY });
  const request = { orgId: org.id, namespaceId: ns.id, query: "pottery class bowl", topK: 10 };
  const scores = async (feedbackWeight: number) =>
    new Map((await searchChunks({ ...request, feedbackWeight })).map((m) => [m.memoryId, [m.score, m.sessionId]]));
  const without = await scores(0);
  const withFeedbackStep = await scores(FEEDBACK_WEIGHT);
  expect([...withFeedbackStep.keys()].sort()).toEqual([...without.keys()].sort());
  let liftedTurns = 0;
  for (const [id, [score, sessionId]] of withFeedbackStep) {
    const before = without.get(id)![0] as number;
    if (sessionId === null) expect(score).toBe(before);
    else expect(score as number).toBeGreaterThanOrEqual(before);
    if ((score as number) > before) liftedTurns++;
  }
  expect(liftedTurns).toBeGreaterThan(0);
});
