// The AI SDK adapter against a real server (`npm start`, the production build, over HTTP): the tools' execute
// functions, the recalled context for a prompt, conversations, and generateText driving the tools through a
// scripted model.
import { describe, expect, test } from "vitest";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { memoryTools, recalledContext, rememberConversation } from "@memory-gateway/ai-sdk";
import { uniqueName, useHeadlessServer } from "../../../tests/helpers/headless-server";

const gateway = useHeadlessServer("AI SDK");
const newNamespace = async () => (await gateway.mg.namespaces.create({ name: uniqueName("ai-sdk") })).id;
const callOptions = { toolCallId: "call-1", messages: [], context: {} };

const isStream = <T>(result: T | PromiseLike<T> | AsyncIterable<T>): result is AsyncIterable<T> =>
  typeof result === "object" && result !== null && Symbol.asyncIterator in result;
/** What a tool's execute answered: the AI SDK's type allows a stream of results, which these tools never give. */
async function executed<T>(result: T | PromiseLike<T> | AsyncIterable<T>): Promise<T> {
  if (isStream(result)) throw new Error("expected one result, not a stream");
  return result;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const toolCallStep = (toolName: string, input: object) => ({
  content: [{ type: "tool-call" as const, toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
  usage,
  warnings: [],
});
const textStep = (text: string) => ({
  content: [{ type: "text" as const, text }],
  finishReason: { unified: "stop" as const, raw: "stop" },
  usage,
  warnings: [],
});

describe("memoryTools", () => {
  test("remember stores a memory for the identity, which GET /memories then lists", async () => {
    const namespaceId = await newNamespace();
    const tools = memoryTools({ client: gateway.mg, namespaceId, identityId: "ada", scopes: { app: "tests" } });
    const stored = await executed(tools.remember.execute!({ content: "Ada is allergic to peanuts." }, callOptions));
    expect(stored).toMatchObject({ content: "Ada is allergic to peanuts.", deduplicated: false });

    const listed = await gateway.mg.memories.list({ namespace_id: namespaceId });
    expect(listed.data.map((memory) => [memory.id, memory.content, memory.identity_id, memory.scopes])).toEqual([
      [stored.memory_id, "Ada is allergic to peanuts.", "ada", { app: "tests" }],
    ]);
  });

  test("recall returns the best match first, compact, and only the identity's memories", async () => {
    const namespaceId = await newNamespace();
    await gateway.mg.remember({
      namespace_id: namespaceId,
      memories: [
        { content: "Grace takes the night train to Vienna on Friday.", identity_id: "grace" },
        { content: "Grace keeps bees on her balcony.", identity_id: "grace" },
        { content: "Linus takes the night train to Vienna on Monday.", identity_id: "linus" },
      ],
    });
    const tools = memoryTools({ client: gateway.mg, namespaceId, identityId: "grace" });
    const matches = await executed(
      tools.recall.execute!({ query: "When is the train to Vienna?", top_k: 5 }, callOptions),
    );
    expect(matches[0].content).toBe("Grace takes the night train to Vienna on Friday.");
    expect(Object.keys(matches[0]).sort()).toEqual(["content", "memory_id", "occurred_at", "score"]);
    expect(matches.map((match) => match.content)).not.toContain("Linus takes the night train to Vienna on Monday.");
  });

  test("ask answers from the identity's memories with its sources", async () => {
    const namespaceId = await newNamespace();
    const memory = await gateway.mg.remember({
      namespace_id: namespaceId,
      content: "Ada's cat is called Byron.",
      identity_id: "ada",
    });
    await gateway.mg.remember({
      namespace_id: namespaceId,
      content: "Grace's cat is called Hopper.",
      identity_id: "grace",
    });
    const tools = memoryTools({ client: gateway.mg, namespaceId, identityId: "ada" });
    const { answer, sources } = await executed(
      tools.ask.execute!({ question: "What is the cat called?" }, callOptions),
    );
    expect(answer).toContain("Byron");
    expect(answer).not.toContain("Hopper");
    expect(sources.map((source) => source.memory_id)).toEqual([memory.id]);
  });

  test("generateText runs the recall tool a scripted model calls and answers from its result", async () => {
    const namespaceId = await newNamespace();
    await gateway.mg.remember({
      namespace_id: namespaceId,
      content: "Ada's favourite colour is teal.",
      identity_id: "ada",
    });
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallStep("recall", { query: "favourite colour" }), textStep("Your favourite colour is teal.")],
    });
    const result = await generateText({
      model,
      prompt: "What is my favourite colour?",
      tools: memoryTools({ client: gateway.mg, namespaceId, identityId: "ada" }),
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe("Your favourite colour is teal.");
    // What the model was given back for its tool call: the recalled memory, as the tool returned it.
    const toolMessage = model.doGenerateCalls[1].prompt.at(-1);
    expect(toolMessage).toMatchObject({
      role: "tool",
      content: [
        {
          toolName: "recall",
          output: { type: "json", value: [expect.objectContaining({ content: "Ada's favourite colour is teal." })] },
        },
      ],
    });
  });

  test("generateText runs the remember tool a scripted model calls, storing for the identity", async () => {
    const namespaceId = await newNamespace();
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallStep("remember", { content: "Ada moved to Lisbon in May." }), textStep("Noted.")],
    });
    await generateText({
      model,
      prompt: "I moved to Lisbon in May.",
      tools: memoryTools({ client: gateway.mg, namespaceId, identityId: "ada" }),
      stopWhen: stepCountIs(3),
    });
    const listed = await gateway.mg.memories.list({ namespace_id: namespaceId, identity_id: "ada" });
    expect(listed.data.map((memory) => memory.content)).toEqual(["Ada moved to Lisbon in May."]);
  });
});

describe("recalledContext and rememberConversation", () => {
  test("the context lists the identity's matching memories, and is empty when none match", async () => {
    const namespaceId = await newNamespace();
    await gateway.mg.remember({
      namespace_id: namespaceId,
      content: "Ada runs the Berlin marathon in September.",
      identity_id: "ada",
    });
    const target = { client: gateway.mg, namespaceId };
    const context = await recalledContext({ ...target, identityId: "ada", query: "Which marathon does Ada run?" });
    expect(context).toMatch(/^What you remember about this user/);
    expect(context).toContain("Ada runs the Berlin marathon in September.");
    expect(await recalledContext({ ...target, identityId: "grace", query: "Which marathon?" })).toBe("");
  });

  test("an exchange is stored as the turns of a conversation, and a later one appends to it", async () => {
    const namespaceId = await newNamespace();
    const target = { client: gateway.mg, namespaceId, identityId: "ada", sessionId: "chat-ada" };
    await rememberConversation({
      ...target,
      messages: [
        { role: "user", content: "I'm flying to Oslo tomorrow." },
        { role: "assistant", content: "Have a good flight to Oslo!" },
      ],
    });
    await rememberConversation({ ...target, messages: [{ role: "user", content: "I'm back from Oslo." }] });
    const turns = await gateway.mg.memories.list({ namespace_id: namespaceId, session_id: "chat-ada" });
    expect(turns.data.map((turn) => [turn.position, turn.role, turn.content, turn.identity_id])).toEqual([
      [0, "user", "I'm flying to Oslo tomorrow.", "ada"],
      [1, "assistant", "Have a good flight to Oslo!", "ada"],
      [2, "user", "I'm back from Oslo.", "ada"],
    ]);
  });
});
