import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { db } from "@/lib/db";
import { api, routeRequest } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";
import { storedCounts } from "../../helpers/memory";
import { startOpenAIServer, type RecordedRequest } from "../../helpers/openai-server";
import { Prisma } from "@/lib/generated/prisma/client";

interface Turn {
  memory_id: string;
  position: number;
  role: string;
  content: string;
  truncated: boolean;
  occurred_at: string;
}
interface Match {
  memory_id: string;
  content: string;
  session_id: string | null;
  position: number | null;
  role: string | null;
  occurred_at: string;
  created_at: string;
  context: Turn[];
}
interface Memory {
  id: string;
  content: string;
  session_id: string | null;
  position: number | null;
  role: string | null;
  occurred_at: string;
  created_at: string;
}

/** Two sessions of a chat between two friends, each on its day (as a conversation benchmark has them). */
const MAY_8 = "2023-05-08T13:56:00.000Z";
const MAY_25 = "2023-05-25T10:00:00.000Z";
const FIRST_SESSION = [
  { role: "Caroline", content: "Hey Melanie! Long time no see, how have you been?" },
  { role: "Melanie", content: "Good! I took my kids to the science museum last weekend. How about you?" },
  { role: "Caroline", content: "I went to an LGBTQ support group yesterday and it was so powerful." },
  { role: "Melanie", content: "That sounds amazing. What did you learn there?" },
  { role: "Caroline", content: "The transgender stories were inspiring; I felt accepted." },
  { role: "Melanie", content: "I'm really glad you found such a welcoming community." },
];
const SECOND_SESSION = [
  { role: "Melanie", content: "I signed up for a pottery class last Tuesday." },
  { role: "Caroline", content: "Pottery sounds relaxing. Are you enjoying it?" },
  { role: "Melanie", content: "Yes, I made a small bowl for my daughter." },
];

function withoutModel() {
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  delete process.env.CHAT_MODEL;
}

async function remember(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/remember", { key, body });
  if (response.status !== 201) throw new Error(`remember failed: ${JSON.stringify(response.body)}`);
  return response.body.data as Memory[];
}

async function recall(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/recall", { key, body });
  if (response.status !== 200) throw new Error(`recall failed: ${JSON.stringify(response.body)}`);
  return response.body.data as Match[];
}

/** A namespace holding the two sessions, remembered in the conversation form. */
async function chatBetweenFriends() {
  const tenant = await createTenant();
  const ns = await createNamespace(tenant.key);
  const first = await remember(tenant.key, {
    namespace_id: ns.id,
    session_id: "s1",
    messages: FIRST_SESSION.map((m) => ({ ...m, occurred_at: MAY_8 })),
  });
  const second = await remember(tenant.key, {
    namespace_id: ns.id,
    session_id: "s2",
    messages: SECOND_SESSION.map((m) => ({ ...m, occurred_at: MAY_25 })),
  });
  return { ...tenant, ns, first, second };
}

const turnOf = (memory: Memory): Turn => ({
  memory_id: memory.id,
  position: memory.position!,
  role: memory.role!,
  content: memory.content,
  truncated: false,
  occurred_at: memory.occurred_at,
});

describe("remembering a conversation", () => {
  beforeAll(withoutModel);

  test("each message becomes a memory with its session, position, role and event time", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const response = await api("POST", "/remember", {
      key,
      body: {
        namespace_id: ns.id,
        session_id: "support-42",
        messages: [
          { role: "user", content: "My order #1234 arrived broken.", occurred_at: "2026-03-01T09:00:00Z" },
          { role: "assistant", content: "Sorry to hear that! I have sent a replacement.", metadata: { tone: "kind" } },
        ],
        identity_id: "customer-7",
      },
    });
    expect(response.status).toBe(201);
    const [question, reply] = response.body.data as (Memory & Record<string, unknown>)[];
    expect(question).toMatchObject({
      namespace_id: ns.id,
      content: "My order #1234 arrived broken.",
      session_id: "support-42",
      position: 0,
      role: "user",
      occurred_at: "2026-03-01T09:00:00.000Z",
      identity_id: "customer-7",
    });
    expect(reply).toMatchObject({
      session_id: "support-42",
      position: 1,
      role: "assistant",
      metadata: { tone: "kind" },
    });
    // Stored as such: GET shows the same fields.
    const stored = await api("GET", `/memories/${reply.id}`, { key });
    expect(stored.body.data).toMatchObject({ session_id: "support-42", position: 1, role: "assistant" });
  });

  test("a later call with the same session_id appends at the next positions; another session starts at 0", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const messages = (...contents: string[]) => contents.map((content) => ({ role: "user", content }));
    await remember(key, { namespace_id: ns.id, session_id: "a", messages: messages("one", "two") });
    const appended = await remember(key, { namespace_id: ns.id, session_id: "a", messages: messages("three") });
    expect(appended.map((m) => [m.content, m.position])).toEqual([["three", 2]]);
    const other = await remember(key, { namespace_id: ns.id, session_id: "b", messages: messages("uno") });
    expect(other.map((m) => m.position)).toEqual([0]);
    // The same session_id in another namespace is another conversation.
    const elsewhere = await createNamespace(key);
    const fresh = await remember(key, { namespace_id: elsewhere.id, session_id: "a", messages: messages("eins") });
    expect(fresh.map((m) => m.position)).toEqual([0]);
  });

  test("two appends to one session at the same time get distinct, consecutive positions", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const batch = (name: string) =>
      remember(key, {
        namespace_id: ns.id,
        session_id: "busy",
        messages: [1, 2, 3].map((i) => ({ role: "user", content: `${name} message ${i}` })),
      });
    const [left, right] = await Promise.all([batch("left"), batch("right")]);
    for (const call of [left, right]) {
      const positions = call.map((m) => m.position!);
      expect(positions).toEqual([positions[0], positions[0] + 1, positions[0] + 2]);
    }
    expect([...left, ...right].map((m) => m.position).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  test("1 to 500 messages: none or 501 is a 400 that stores nothing", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ role: "user", content: `turn ${i}` }));
    for (const messages of [[], many(501)]) {
      const refused = await api("POST", "/remember", { key, body: { namespace_id: ns.id, session_id: "s", messages } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.map((d: { field: string }) => d.field)).toContain("body.messages");
    }
    const withoutSession = await api("POST", "/remember", {
      key,
      body: { namespace_id: ns.id, messages: many(1) },
    });
    expect(withoutSession.status).toBe(400);
    expect((await storedCounts(ns.id)).memories).toBe(0);

    const largest = await remember(key, { namespace_id: ns.id, session_id: "s", messages: many(500) });
    expect(largest.map((m) => m.position)).toEqual(many(500).map((_, i) => i));
  });

  test("occurred_at defaults to the request time, apart from created_at; plain memories accept it", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const before = Date.now();
    const [now] = await remember(key, {
      namespace_id: ns.id,
      session_id: "s",
      messages: [{ role: "user", content: "hi" }],
    });
    const after = Date.now();
    expect(Date.parse(now.occurred_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(now.occurred_at)).toBeLessThanOrEqual(after);

    const plain = await api("POST", "/remember", {
      key,
      body: { namespace_id: ns.id, content: "The lease was signed.", occurred_at: "2021-06-30T08:00:00+02:00" },
    });
    expect(plain.status).toBe(201);
    expect(plain.body.data.occurred_at).toBe("2021-06-30T06:00:00.000Z");
    expect(plain.body.data.session_id).toBeNull();
    expect(Date.parse(plain.body.data.created_at)).toBeGreaterThanOrEqual(before);
    const [match] = await recall(key, { namespace_id: ns.id, query: "lease signed" });
    expect(match).toMatchObject({ occurred_at: "2021-06-30T06:00:00.000Z", session_id: null, position: null });
    expect(match.created_at).toBe(plain.body.data.created_at);

    const bad = await api("POST", "/remember", {
      key,
      body: { namespace_id: ns.id, content: "x", occurred_at: "last Tuesday" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe("body.occurred_at");
  });
});

describe("recall over conversations", () => {
  beforeAll(withoutModel);

  test("matches carry session_id, position, role and occurred_at", async () => {
    const { key, ns, first } = await chatBetweenFriends();
    const [match] = await recall(key, { namespace_id: ns.id, query: "LGBTQ support group" });
    expect(match).toMatchObject({
      memory_id: first[2].id,
      content: FIRST_SESSION[2].content,
      session_id: "s1",
      position: 2,
      role: "Caroline",
      occurred_at: MAY_8,
      context: [],
    });
  });

  test("context: n returns the n turns before and after a match, fewer at both ends of the session", async () => {
    const { key, ns, first, second } = await chatBetweenFriends();
    const find = async (query: string, context: number, position: number, session_id = "s1") => {
      const matches = await recall(key, { namespace_id: ns.id, query, context, session_id });
      const match = matches.find((m) => m.position === position);
      expect(match, `${query} finds position ${position}`).toBeDefined();
      return match!;
    };
    const opening = await find("long time no see", 2, 0);
    expect(opening.context).toEqual([turnOf(first[1]), turnOf(first[2])]);
    const closing = await find("welcoming community", 2, 5);
    expect(closing.context).toEqual([turnOf(first[3]), turnOf(first[4])]);
    const middle = await find("LGBTQ support group", 1, 2);
    expect(middle.context).toEqual([turnOf(first[1]), turnOf(first[3])]);
    // More than the session holds: the whole session, in order, and nothing of the other session.
    const pottery = await find("pottery class", 5, 0, "s2");
    expect(pottery.context).toEqual([turnOf(second[1]), turnOf(second[2])]);
    expect((await find("LGBTQ support group", 0, 2)).context).toEqual([]);
  });

  test("a plain memory has no context; context outside 0 to 5 is a 400", async () => {
    const { key, ns } = await chatBetweenFriends();
    await remember(key, { namespace_id: ns.id, content: "Melanie's daughter loves blue bowls." });
    const matches = await recall(key, { namespace_id: ns.id, query: "daughter bowls", context: 3 });
    const plain = matches.find((m) => m.session_id === null);
    expect(plain).toMatchObject({ content: "Melanie's daughter loves blue bowls.", position: null, context: [] });
    for (const context of [6, -1, 1.5, "2"]) {
      const refused = await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "bowl", context } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details[0].field).toBe("body.context");
    }
  });

  test("a scoped key cannot append to a session holding turns it may not see, nor learn their number", async () => {
    const { org, key } = await createTenant();
    const ns = await createNamespace(key);
    const turns = (...contents: string[]) => contents.map((content) => ({ role: "user", content }));
    const red = await createKey(org.id, { scopes: { team: "red" }, namespaceIds: [ns.id] });
    const blue = await createKey(org.id, { scopes: { team: "blue" }, namespaceIds: [ns.id] });
    await remember(red.secret, {
      namespace_id: ns.id,
      session_id: "war-room",
      messages: turns("Red plan A.", "Red B."),
    });
    const refused = await api("POST", "/remember", {
      key: blue.secret,
      body: { namespace_id: ns.id, session_id: "war-room", messages: turns("Blue joins.") },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toEqual([
      { field: "body.session_id", message: "a session with turns outside the key's scopes" },
    ]);
    expect(JSON.stringify(refused.body)).not.toMatch(/\b2\b|position/);
    expect((await storedCounts(ns.id)).memories).toBe(2);
    // Its own session, and the red key's further turns, go on as before.
    const own = await remember(blue.secret, { namespace_id: ns.id, session_id: "blue-room", messages: turns("Hi.") });
    expect(own.map((m) => m.position)).toEqual([0]);
    const more = await remember(red.secret, { namespace_id: ns.id, session_id: "war-room", messages: turns("Red C.") });
    expect(more.map((m) => m.position)).toEqual([2]);
  });

  test("neighbours obey the key's scopes, the request's filters, and expiry", async () => {
    const { org, key } = await createTenant();
    const ns = await createNamespace(key);
    const turn = (content: string) => [{ role: "user", content }];
    const append = (content: string, extra: Record<string, unknown>) =>
      remember(key, { namespace_id: ns.id, session_id: "mixed", messages: turn(content), ...extra });
    const [a0] = await append("Team A planning starts.", { scopes: { team: "a" } });
    await append("Team B secret budget figures.", { scopes: { team: "b" } });
    const [a2] = await append("Team A roadmap review of the launch.", { scopes: { team: "a" } });
    const [a3] = await append("Team A launch retrospective.", { scopes: { team: "a" }, identity_id: "kim" });
    const [a4] = await append("Team A closing notes.", { scopes: { team: "a" } });

    const teamA = await createKey(org.id, { scopes: { team: "a" }, namespaceIds: [ns.id] });
    const seen = await recall(teamA.secret, { namespace_id: ns.id, query: "roadmap review", context: 2 });
    expect(seen[0].memory_id).toBe(a2.id);
    expect(seen[0].context.map((t) => t.memory_id)).toEqual([a0.id, a3.id, a4.id]);
    expect(JSON.stringify(seen)).not.toContain("secret budget");

    // The request's filters apply to the neighbours as to the matches: identity_id here.
    const retrospective = { namespace_id: ns.id, query: "launch retrospective", context: 2 };
    const everyone = await recall(key, retrospective);
    expect(everyone[0].memory_id).toBe(a3.id);
    expect(everyone[0].context.map((t) => t.position)).toEqual([1, 2, 4]);
    const kimOnly = await recall(key, { ...retrospective, identity_id: "kim" });
    expect(kimOnly.map((m) => [m.memory_id, m.context])).toEqual([[a3.id, []]]);

    // An expired neighbour is gone from the context as from every read.
    const prisma = await db();
    await prisma.$executeRaw(
      Prisma.sql`UPDATE memories SET expires_at = now() - interval '1 second' WHERE id = ${a3.id}`,
    );
    await prisma.$executeRaw(
      Prisma.sql`UPDATE memory_chunks SET expires_at = now() - interval '1 second' WHERE memory_id = ${a3.id}`,
    );
    const afterExpiry = await recall(teamA.secret, { namespace_id: ns.id, query: "roadmap review", context: 2 });
    expect(afterExpiry[0].context.map((t) => t.memory_id)).toEqual([a0.id, a4.id]);
  });

  test("filters session_id, occurred_after and occurred_before apply before the top_k limit", async () => {
    const { key, ns, second } = await chatBetweenFriends();
    // Many turns about pottery in another session, earlier, outrank the one we filter for.
    await remember(key, {
      namespace_id: ns.id,
      session_id: "noise",
      messages: Array.from({ length: 30 }, (_, i) => ({
        role: "Melanie",
        content: `Pottery class notes ${i}: pottery glaze, pottery wheel, pottery kiln.`,
        occurred_at: "2023-04-01T10:00:00Z",
      })),
    });
    const bySession = await recall(key, { namespace_id: ns.id, query: "pottery class", top_k: 1, session_id: "s2" });
    expect(bySession.map((m) => m.memory_id)).toEqual([second[0].id]);
    const after = await recall(key, {
      namespace_id: ns.id,
      query: "pottery class",
      top_k: 1,
      occurred_after: "2023-05-20T00:00:00Z",
    });
    expect(after.map((m) => m.memory_id)).toEqual([second[0].id]);
    const before = await recall(key, {
      namespace_id: ns.id,
      query: "pottery class",
      top_k: 50,
      occurred_before: "2023-05-01",
    });
    expect(before).toHaveLength(30);
    expect(before.every((m) => m.session_id === "noise")).toBe(true);
    // The bounds: occurred_after includes its instant, occurred_before excludes it.
    const onTheDay = await recall(key, {
      namespace_id: ns.id,
      query: "support group",
      occurred_after: MAY_8,
      occurred_before: MAY_25,
    });
    expect(new Set(onTheDay.map((m) => m.session_id))).toEqual(new Set(["s1"]));

    const refused = await api("POST", "/recall", {
      key,
      body: { namespace_id: ns.id, query: "pottery", occurred_after: "yesterday" },
    });
    expect(refused.status).toBe(400);
  });
});

describe("ask over conversations, without a chat model", () => {
  beforeAll(withoutModel);

  test("a question about when is answered with the date, resolved against the day the turn was said", async () => {
    const { key, ns, first } = await chatBetweenFriends();
    const response = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "When did Caroline go to the LGBTQ support group?" },
    });
    expect(response.status).toBe(200);
    const { answer, sources } = response.body.data;
    const source = sources.find((s: { memory_id: string }) => s.memory_id === first[2].id);
    expect(source).toMatchObject({ session_id: "s1", position: 2, role: "Caroline", occurred_at: MAY_8, context: [] });
    // Caroline said "yesterday" on 8 May 2023: the answer is the day it means, cited.
    expect(FIRST_SESSION[2].content).toContain("yesterday");
    expect(answer).toBe(`7 May 2023 [${source.index}].`);
  });

  test("sources carry their neighbouring turns with context, and the answer may quote them", async () => {
    const { key, ns } = await chatBetweenFriends();
    const exchange = await remember(key, {
      namespace_id: ns.id,
      session_id: "s3",
      messages: [
        { role: "Melanie", content: "Which novel should I read on the flight to Lisbon?", occurred_at: MAY_25 },
        { role: "Caroline", content: "Try Becoming Nicole, it moved me deeply.", occurred_at: MAY_25 },
      ],
    });
    const question = "Which novel was recommended for the flight to Lisbon?";
    const ask = (context: number) =>
      api("POST", "/ask", { key, body: { namespace_id: ns.id, query: question, context, top_k: 1 } });
    const without = (await ask(0)).body.data;
    expect(without.sources.map((s: Match) => [s.memory_id, s.context])).toEqual([[exchange[0].id, []]]);
    expect(without.answer).not.toContain("Becoming Nicole");

    // The answer is the turn after the one that matched: with context it is a part of the source, and quoted.
    const withContext = (await ask(1)).body.data;
    expect(withContext.sources[0]).toMatchObject({ memory_id: exchange[0].id, context: [turnOf(exchange[1])] });
    expect(withContext.answer).toContain("Caroline: Try Becoming Nicole, it moved me deeply [1].");
  });

  test("ask takes the same filters: session_id and event time", async () => {
    const { key, ns } = await chatBetweenFriends();
    const ask = async (query: string, filters: Record<string, unknown>) => {
      const response = await api("POST", "/ask", { key, body: { namespace_id: ns.id, query, ...filters } });
      expect(response.status).toBe(200);
      return new Set((response.body.data.sources as Match[]).map((s) => s.session_id));
    };
    expect(await ask("pottery class", {})).toEqual(new Set(["s2"]));
    expect(await ask("pottery class", { session_id: "s2" })).toEqual(new Set(["s2"]));
    expect(await ask("pottery class", { session_id: "s1" })).toEqual(new Set());
    expect(await ask("pottery class", { occurred_after: "2023-05-20T00:00:00Z" })).toEqual(new Set(["s2"]));
    expect(await ask("pottery class", { occurred_before: "2023-05-20T00:00:00Z" })).toEqual(new Set());
    expect(await ask("LGBTQ support group", { occurred_before: "2023-05-20T00:00:00Z" })).toEqual(new Set(["s1"]));
    const refused = await api("POST", "/ask", { key, body: { namespace_id: ns.id, query: "x", context: 9 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].field).toBe("body.context");
  });
});

describe("ask over conversations, with a chat model", () => {
  let openai: Awaited<ReturnType<typeof startOpenAIServer>>;
  const prompts = () =>
    openai.requests
      .filter((r: RecordedRequest) => r.path.endsWith("/chat/completions"))
      .map((r) => r.body.messages[1].content as string);

  beforeAll(async () => {
    openai = await startOpenAIServer({
      chat: () => ({
        json: {
          id: "chatcmpl-1",
          object: "chat.completion",
          created: 1,
          model: "test-chat",
          choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "On 7 May 2023 [1]." } }],
        },
      }),
    });
    Object.assign(process.env, { OPENAI_BASE_URL: openai.baseURL, OPENAI_API_KEY: "sk-test", CHAT_MODEL: "test-chat" });
  });
  afterEach(() => {
    openai.requests.length = 0;
  });
  afterAll(async () => {
    withoutModel();
    await openai.close();
  });

  test("the prompt gives each source its day and speaker, and with context the passage around it", async () => {
    const { key, ns } = await chatBetweenFriends();
    const question = "When did Caroline go to the LGBTQ support group?";
    const plain = await api("POST", "/ask", { key, body: { namespace_id: ns.id, query: question, top_k: 1 } });
    expect(plain.body.data.answer).toBe("On 7 May 2023 [1].");
    expect(prompts()[0]).toBe(
      `Sources:\n\n[1] (8 May 2023) Caroline: ${FIRST_SESSION[2].content}\n\nQuestion: ${question}`,
    );

    await api("POST", "/ask", { key, body: { namespace_id: ns.id, query: question, top_k: 1, context: 1 } });
    expect(prompts()[1]).toBe(
      `Sources:\n\n[1] A passage of a conversation, the matching turn marked ">":\n` +
        `- (8 May 2023) Melanie: ${FIRST_SESSION[1].content}\n` +
        `> (8 May 2023) Caroline: ${FIRST_SESSION[2].content}\n` +
        `- (8 May 2023) Melanie: ${FIRST_SESSION[3].content}\n\nQuestion: ${question}`,
    );
  });
});

describe("over MCP", () => {
  const clients: Client[] = [];
  beforeAll(withoutModel);
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  async function connect(namespaceId: string, key: string) {
    const client = new Client({ name: "memgw-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`http://gateway.test/api/v1/mcp/${namespaceId}`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: (input, init) => routeRequest(new Request(input, init)),
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>) {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as { text: string }[]).map((c) => c.text).join("");
    return { isError: Boolean(result.isError), text, json: result.isError ? undefined : JSON.parse(text) };
  }

  test("remember takes a conversation; recall and ask take context and the conversation filters", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const client = await connect(ns.id, key);
    const { tools } = await client.listTools();
    const remember = tools.find((tool) => tool.name === "remember")!;
    expect(Object.keys(remember.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["content", "session_id", "messages", "occurred_at", "expires_at", "ttl_seconds"]),
    );
    const recallTool = tools.find((tool) => tool.name === "recall")!;
    expect(Object.keys(recallTool.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["context", "session_id", "occurred_after", "occurred_before"]),
    );

    const stored = await call(client, "remember", {
      session_id: "s1",
      messages: FIRST_SESSION.map((m) => ({ ...m, occurred_at: MAY_8 })),
    });
    expect(stored.isError).toBe(false);
    expect(stored.json.map((m: Memory) => [m.position, m.role])).toEqual(FIRST_SESSION.map((m, i) => [i, m.role]));

    const recalled = await call(client, "recall", { query: "LGBTQ support group", context: 1, session_id: "s1" });
    expect(recalled.json[0]).toMatchObject({ memory_id: stored.json[2].id, position: 2, occurred_at: MAY_8 });
    expect(recalled.json[0].context.map((t: Turn) => t.position)).toEqual([1, 3]);

    const asked = await call(client, "ask", { query: "When did Caroline go to the LGBTQ support group?" });
    expect(asked.json.answer).toContain("7 May 2023 [");

    const invalid = await call(client, "remember", { session_id: "s1", messages: [] });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toContain("messages");
  });
});
