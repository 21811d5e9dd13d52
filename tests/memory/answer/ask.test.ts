import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { db } from "@/lib/db";
import { ANSWER_INSTRUCTIONS } from "@/lib/memory/answer/chat";
import { dayOf } from "@/lib/memory/text/source-text";
import { api } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";
import { rememberAll } from "../../helpers/memory";
import { startOpenAIServer, type RecordedRequest } from "../../helpers/openai-server";

const NOTES = [
  "Dana prefers morning meetings. She is unavailable on Fridays because she teaches a pottery class.",
  "The staging database is restored from the production snapshot every Sunday night.",
  "Kiwi the parrot eats sunflower seeds and apple slices.",
];

function withoutModel() {
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  delete process.env.CHAT_MODEL;
  delete process.env.OPENAI_TIMEOUT_MS;
}

async function tenantWithNotes() {
  const tenant = await createTenant();
  const ns = await createNamespace(tenant.key);
  const memories = await rememberAll(
    tenant.key,
    ns.id,
    NOTES.map((content) => ({ content })),
  );
  return { ...tenant, ns, ids: memories.map((m: { id: string }) => m.id) };
}

/** A conversation of two speakers, said on Monday 8 May 2023. */
const CONVERSATION = [
  { role: "Melanie", content: "Hey Caroline! How was your weekend?" },
  {
    role: "Caroline",
    content: "I went to a LGBTQ support group yesterday. It was so powerful to hear everyone's stories.",
  },
  { role: "Melanie", content: "That sounds amazing. Do you have any plans for the holidays?" },
  { role: "Caroline", content: "Yes! I'm going to Portugal this summer, two weeks in Lisbon and the Algarve." },
  { role: "Melanie", content: "Lovely. We are taking the kids camping in the mountains in June." },
];

async function tenantWithConversation() {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const response = await api("POST", "/remember", {
    key,
    body: {
      namespace_id: ns.id,
      session_id: "chat-1",
      messages: CONVERSATION.map((m) => ({ ...m, occurred_at: "2023-05-08T13:56:00Z" })),
    },
  });
  if (response.status !== 201) throw new Error(`remember failed: ${JSON.stringify(response.body)}`);
  const ids = (response.body.data as { id: string; position: number }[])
    .sort((a, b) => a.position - b.position)
    .map((m) => m.id);
  return { key, ns, ids };
}

/** At most three sentences; every `[n]` is a source's index, and one at least is cited. */
function expectAnswerContract(answer: string, sources: { index: number }[]) {
  const sentences = answer.split(/(?<=[.!?])\s+(?=[A-Z"'])/).filter(Boolean);
  expect(sentences.length).toBeLessThanOrEqual(3);
  const cited = [...answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  expect(cited.length).toBeGreaterThan(0);
  for (const n of cited) expect(sources.map((s) => s.index)).toContain(n);
}

describe("without a chat model (the offline default)", () => {
  beforeAll(withoutModel);

  test("the extractive answerer answers with the sentence that answers, citing its source", async () => {
    const { key, ns, ids } = await tenantWithNotes();
    const response = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "Why is Dana unavailable on Fridays?" },
    });
    expect(response.status).toBe(200);
    const { answer, sources, model } = response.body.data;
    expect(model).toBe("extractive");
    const dana = sources.find((s: { memory_id: string }) => s.memory_id === ids[0]);
    expect(dana).toMatchObject({ memory_id: ids[0], content: NOTES[0] });
    expect(answer).toContain(`She is unavailable on Fridays because she teaches a pottery class [${dana.index}].`);
    // Every cited index is a source.
    for (const [, n] of answer.matchAll(/\[(\d+)\]/g))
      expect(sources.map((s: { index: number }) => s.index)).toContain(Number(n));
    expect(sources.map((s: { index: number }) => s.index)).toEqual(sources.map((_: unknown, i: number) => i + 1));
  });

  test("a sentence answering through a pronoun is kept with the one naming its subject, in text order", async () => {
    const { key, ns } = await tenantWithNotes();
    const { body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "Why can't Dana meet on Fridays?" },
    });
    expect(body.data.answer).toBe(
      "Dana prefers morning meetings [1]. She is unavailable on Fridays because she teaches a pottery class [1].",
    );
  });

  test("a paraphrase that shares no word with the memory is still answered from it", async () => {
    const { key, ns, ids } = await tenantWithNotes();
    const { body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "What food does my bird like?" },
    });
    expect(body.data.sources[0].memory_id).toBe(ids[2]);
    expect(body.data.answer).toBe("Kiwi the parrot eats sunflower seeds and apple slices [1].");
  });

  test("with nothing relevant in memory the answer says so and cites nothing", async () => {
    const { key, ns } = await tenantWithNotes();
    const { status, body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "What is the capital of Australia?" },
    });
    expect(status).toBe(200);
    expect(body.data).toEqual({ answer: "Nothing in memory answers this question.", sources: [], model: "extractive" });

    const empty = await createNamespace(key);
    const none = await api("POST", "/ask", { key, body: { namespace_id: empty.id, query: "Who is Dana?" } });
    expect(none.body.data.sources).toEqual([]);
  });

  test("a where-question is answered with the place, from the conversation turn recall ranks first", async () => {
    const { key, ns, ids } = await tenantWithConversation();
    const recalled = await api("POST", "/recall", {
      key,
      body: { namespace_id: ns.id, query: "Where is Caroline travelling this summer?", top_k: 3 },
    });
    expect(recalled.body.data[0].memory_id).toBe(ids[3]);

    const { status, body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "Where is Caroline travelling this summer?" },
    });
    expect(status).toBe(200);
    const { answer, sources } = body.data;
    const portugal = sources.find((s: { memory_id: string }) => s.memory_id === ids[3]);
    expect(portugal).toMatchObject({ role: "Caroline", session_id: "chat-1", position: 3 });
    // The place alone, cited: the source says who is going and when.
    expect(answer).toBe(`Portugal [${portugal.index}].`);
    expect(answer).not.toMatch(/assistant said|Caroline said/i);
    expectAnswerContract(answer, sources);
  });

  test("a when-question is answered with the date, a relative one resolved against the day it was said", async () => {
    const { key, ns, ids } = await tenantWithConversation();
    const { body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "When did Caroline go to the LGBTQ support group?" },
    });
    const { answer, sources } = body.data;
    const group = sources.find((s: { memory_id: string }) => s.memory_id === ids[1]);
    // Said on Monday 8 May 2023: "yesterday" is 7 May 2023.
    expect(answer).toBe(`7 May 2023 [${group.index}].`);
    expectAnswerContract(answer, sources);
  });

  test("a when-question keeps a recurring time, a time of day or a range as the memory says it", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    // Said on a Sunday: no answer may turn "every Sunday" into that one date.
    const said = "2026-11-29T10:00:00Z";
    await rememberAll(
      key,
      ns.id,
      [
        "The staging server is rebooted every Sunday at 03:00 UTC.",
        "The backup job runs from 01:00 to 02:30 every night.",
        "The conference lasts three days, from 4 to 6 June.",
        "Yesterday we moved the deploy window to Tuesday afternoons.",
        "The stand-up is at 9.30 am on weekdays.",
      ].map((content) => ({ content, occurred_at: said })),
    );
    const answers: Record<string, string> = {};
    for (const query of [
      "When is the staging server rebooted?",
      "When does the backup job run?",
      "When is the conference?",
      "When is the deploy window?",
      "When is the stand-up?",
      "When did we move the deploy window?",
    ]) {
      const { body } = await api("POST", "/ask", { key, body: { namespace_id: ns.id, query } });
      answers[query] = body.data.answer.replace(/ \[\d+\]/g, "");
    }
    expect(answers).toEqual({
      "When is the staging server rebooted?": "Every Sunday at 03:00 UTC.",
      "When does the backup job run?": "From 01:00 to 02:30 every night.",
      "When is the conference?": "From 4 to 6 June.",
      "When is the deploy window?": "Tuesday afternoons.",
      "When is the stand-up?": "At 9.30 am on weekdays.",
      // A date said relative to the memory's time is resolved: it was moved the day before it was said.
      "When did we move the deploy window?": "28 November 2026.",
    });
  });

  test("ask answers from what recall finds: a question about the user, asked with the user's identity", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    await rememberAll(key, ns.id, [
      { content: "Works at a bakery in Lyon.", identity_id: "user-7" },
      { content: "Prefers jasmine tea.", identity_id: "user-7" },
      { content: "Works at a shipyard in Gdansk.", identity_id: "user-8" },
    ]);
    const query = { namespace_id: ns.id, query: "Where does the user work?", identity_id: "user-7" };
    const recalled = await api("POST", "/recall", { key, body: query });
    expect(recalled.body.data[0].content).toBe("Works at a bakery in Lyon.");
    const { body } = await api("POST", "/ask", { key, body: query });
    expect(body.data.sources[0].memory_id).toBe(recalled.body.data[0].memory_id);
    expect(body.data.answer).toBe("Lyon [1].");
  });

  test("a where-question is answered from the close candidate that names a place", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const said = "2023-05-08T13:56:00Z";
    const messages = [
      { role: "Melanie", content: "Did you sort out your summer plans?" },
      { role: "Caroline", content: "I finally booked my summer trip!" },
      { role: "Caroline", content: "Two weeks in Lisbon and the Algarve, I can't wait." },
    ].map((m) => ({ ...m, occurred_at: said }));
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, session_id: "s", messages } });
    const { body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "Where is Caroline travelling this summer?" },
    });
    const lisbon = body.data.sources.find((s: { content: string }) => s.content.includes("Lisbon"));
    expect(body.data.answer).toBe(`Lisbon [${lisbon.index}].`);
  });

  test("a how-long question is answered with the number and what it counts", async () => {
    const { key, ns, ids } = await tenantWithConversation();
    const { body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "How long is Caroline's trip to Portugal?" },
    });
    const { answer, sources } = body.data;
    const portugal = sources.find((s: { memory_id: string }) => s.memory_id === ids[3]);
    expect(answer).toBe(`Two weeks [${portugal.index}].`);
    expectAnswerContract(answer, sources);
  });

  test("a what-question is answered with the clause holding its words, not the whole long sentence", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const sentence =
      "The team picked Lisbon for the offsite, the catering budget stayed at 40 euros a head, " +
      "and the dates moved to the second week of June.";
    await rememberAll(key, ns.id, [{ content: sentence }]);
    const { body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "What happened to the catering budget?" },
    });
    const { answer, sources } = body.data;
    expect(answer).toBe(
      "The catering budget stayed at 40 euros a head, and the dates moved to the second week of June [1].",
    );
    expect(answer).not.toContain("Lisbon");
    expectAnswerContract(answer, sources);
  });

  test('turns of the generic roles are named as the user and the assistant, never "assistant said"', async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const remembered = await api("POST", "/remember", {
      key,
      body: {
        namespace_id: ns.id,
        session_id: "support-1",
        messages: [
          {
            role: "user",
            content: "Please never suggest recipes with peanuts, I am allergic to them.",
            occurred_at: "2024-03-04T10:00:00Z",
          },
          {
            role: "assistant",
            content: "Understood, I will leave peanuts out of every recipe.",
            occurred_at: "2024-03-04T10:00:05Z",
          },
        ],
      },
    });
    expect(remembered.status).toBe(201);
    const { body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "What is the user allergic to?" },
    });
    const { answer, sources } = body.data;
    expect(answer).toMatch(/^The user: Please never suggest recipes with peanuts, I am allergic to them \[\d\]\./);
    expect(answer).not.toMatch(/\b(user|assistant) said\b/i);
    expectAnswerContract(answer, sources);
  });

  test("ask follows recall's rules: target, permission, scopes and identity", async () => {
    const { org, key, ns } = await tenantWithNotes();
    expect((await api("POST", "/ask", { key, body: { query: "Dana?" } })).status).toBe(400);
    expect(
      (await api("POST", "/ask", { key, body: { namespace_id: ns.id, external_reference_id: "x", query: "Dana?" } }))
        .status,
    ).toBe(400);
    const badTopK = await api("POST", "/ask", { key, body: { namespace_id: ns.id, query: "Dana?", top_k: 21 } });
    expect(badTopK.status).toBe(400);
    expect(badTopK.body.error.details).toEqual([
      { field: "body.top_k", message: "must be a whole number from 1 to 20" },
    ]);
    expect((await api("POST", "/ask", { key, body: { namespace_id: "ns_missing", query: "Dana?" } })).status).toBe(404);

    const writer = await createKey(org.id, { permissions: ["NAMESPACE_WRITE"], namespaceIds: [ns.id] });
    const refused = await api("POST", "/ask", { key: writer.secret, body: { namespace_id: ns.id, query: "Dana?" } });
    expect(refused.status).toBe(403);

    const teamA = await createKey(org.id, { scopes: { team: "a" }, namespaceIds: [ns.id] });
    await api("POST", "/remember", {
      key: teamA.secret,
      body: { namespace_id: ns.id, content: "Team A ships the mobile release on Thursday.", identity_id: "sam" },
    });
    // Scored over team A's memories only (BM25 statistics follow the key's scopes): words that only other
    // scopes' memories have ("Dana", "meet") weigh on the question as in a namespace of A's memories alone.
    const question = "When does team A ship the mobile release?";
    const scoped = await api("POST", "/ask", { key: teamA.secret, body: { namespace_id: ns.id, query: question } });
    expect(scoped.body.data.sources.map((s: { content: string }) => s.content)).toEqual([
      "Team A ships the mobile release on Thursday.",
    ]);
    expect(
      (
        await api("POST", "/ask", {
          key: teamA.secret,
          body: { namespace_id: ns.id, query: "x", scopes: { team: "b" } },
        })
      ).status,
    ).toBe(403);

    const forSam = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "When does the mobile release ship? Dana?", identity_id: "sam" },
    });
    expect(forSam.body.data.sources.map((s: { content: string }) => s.content)).toEqual([
      "Team A ships the mobile release on Thursday.",
    ]);
  });
});

describe("with a chat model on an OpenAI-compatible endpoint", () => {
  type Reply = { status?: number; json?: unknown; hang?: boolean };
  let replies: Reply[] = [];
  let openai: Awaited<ReturnType<typeof startOpenAIServer>>;
  const chatRequests = () => openai.requests.filter((r: RecordedRequest) => r.path.endsWith("/chat/completions"));
  const completion = (content: string) => ({
    json: {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "test-chat-1-2026",
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
    },
  });

  beforeAll(async () => {
    openai = await startOpenAIServer({
      chat: () => replies.shift() ?? { status: 500, json: { error: { message: "no reply queued" } } },
    });
    Object.assign(process.env, {
      OPENAI_BASE_URL: openai.baseURL,
      OPENAI_API_KEY: "sk-test",
      CHAT_MODEL: "test-chat-1",
    });
  });
  afterEach(() => {
    replies = [];
    openai.requests.length = 0;
  });
  afterAll(async () => {
    withoutModel();
    await openai.close();
  });

  test("the SDK sends the model, instructions and numbered sources; a validly cited reply is the answer", async () => {
    const { key, ns, ids } = await tenantWithNotes();
    const { occurred_at: occurredAt } = (await api("GET", `/memories/${ids[0]}`, { key })).body.data;
    replies = [completion("Dana teaches a pottery class on Fridays [1].")];
    const { status, body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "Why is Dana unavailable on Fridays?", top_k: 1 },
    });
    expect(status).toBe(200);
    expect(body.data).toEqual({
      answer: "Dana teaches a pottery class on Fridays [1].",
      sources: [
        {
          index: 1,
          memory_id: ids[0],
          chunk_id: expect.any(String),
          content: NOTES[0],
          score: expect.any(Number),
          session_id: null,
          position: null,
          role: null,
          occurred_at: occurredAt,
          valid_at: occurredAt,
          invalid_at: null,
          superseded_by: null,
          context: [],
          document: null,
        },
      ],
      model: "test-chat-1-2026",
    });
    const [request] = chatRequests();
    expect(request.headers.authorization).toBe("Bearer sk-test");
    expect(request.body.model).toBe("test-chat-1");
    expect(request.body.messages).toEqual([
      { role: "system", content: ANSWER_INSTRUCTIONS },
      {
        role: "user",
        content: `Sources:\n\n[1] (${dayOf(occurredAt)}) ${NOTES[0]}\n\nQuestion: Why is Dana unavailable on Fridays?`,
      },
    ]);
  });

  test("a reply citing a source that does not exist is asked again; the corrected reply is the answer", async () => {
    const { key, ns } = await tenantWithNotes();
    replies = [completion("Dana teaches pottery [4]."), completion("Dana teaches pottery on Fridays [1].")];
    const { body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "Why is Dana unavailable on Fridays?", top_k: 1 },
    });
    expect(body.data.answer).toBe("Dana teaches pottery on Fridays [1].");
    const retry = chatRequests()[1].body.messages;
    expect(retry.at(-2)).toEqual({ role: "assistant", content: "Dana teaches pottery [4]." });
    expect(retry.at(-1).content).toContain("cited [4], but the sources are numbered 1 to 1");
  });

  test("a reply citing nothing, twice, is replaced by the extractive answer", async () => {
    const { key, ns } = await tenantWithNotes();
    replies = [completion("She teaches pottery."), completion("Pottery, on Fridays.")];
    const { status, body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "Why is Dana unavailable on Fridays?", top_k: 1 },
    });
    expect(status).toBe(200);
    expect(chatRequests()).toHaveLength(2);
    expect(body.data.model).toBe("extractive");
    expect(body.data.answer).toContain("teaches a pottery class [1].");
  });

  test("invalid citations twice also fall back to the extractive answer", async () => {
    const { key, ns } = await tenantWithNotes();
    replies = [completion("Pottery [2]."), completion("Pottery [0].")];
    const { body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "Why is Dana unavailable on Fridays?", top_k: 1 },
    });
    expect(body.data.model).toBe("extractive");
  });

  test("with no relevant source the model is not called and the answer says nothing in memory answers", async () => {
    const { key, ns } = await tenantWithNotes();
    const { body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "What is the capital of Australia?" },
    });
    expect(body.data).toEqual({
      answer: "Nothing in memory answers this question.",
      sources: [],
      model: "test-chat-1",
    });
    expect(chatRequests()).toHaveLength(0);
  });

  test("a provider error is a 502 UPSTREAM_ERROR with a clear message, and is logged as such", async () => {
    const { org, key, ns } = await tenantWithNotes();
    replies = [{ status: 503, json: { error: { message: "model overloaded" } } }];
    const { status, body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "Why is Dana unavailable on Fridays?" },
    });
    expect(status).toBe(502);
    expect(body.error.code).toBe("UPSTREAM_ERROR");
    expect(body.error.message).toContain("The chat model (test-chat-1) failed with status 503");
    expect(body.error.message).toContain("model overloaded");
    const prisma = await db();
    const [row] = await prisma.activityLog.findMany({ where: { orgId: org.id, operation: "ask" } });
    expect(row.status).toBe(502);
  });

  test("a model slower than OPENAI_TIMEOUT_MS is a 502 that says so, not a hang", async () => {
    const { key, ns } = await tenantWithNotes();
    process.env.OPENAI_TIMEOUT_MS = "300";
    replies = [{ ...completion("Too late [1]."), hang: true }];
    const started = performance.now();
    const { status, body } = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "Why is Dana unavailable on Fridays?" },
    });
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(status).toBe(502);
    expect(body.error.message).toBe("The chat model (test-chat-1) did not answer within 300 ms (OPENAI_TIMEOUT_MS).");
    delete process.env.OPENAI_TIMEOUT_MS;
  });
});
