// examples/ai-sdk-chat as its README runs it (`node --import tsx examples/ai-sdk-chat/main.ts`, configured by
// the environment) against a real server (`npm start`), with a scripted OpenAI-compatible chat model: what one
// user tells it in a first chat is recalled in a later chat of the same user, and never in another user's.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, test } from "vitest";
import { MemoryGateway } from "@memory-gateway/client";
import { startOpenAIServer } from "../helpers/openai-server";
import { startHeadlessServer } from "../helpers/headless-server";
import { freePort, type RunningServer } from "../helpers/server";

let server: RunningServer;
let apiKey: string;
let openai: Awaited<ReturnType<typeof startOpenAIServer>>;
let example: ChildProcess;
let chatUrl: string;

const completion = (message: object, finishReason: string) => ({
  id: "chatcmpl-test",
  object: "chat.completion",
  created: Math.floor(Date.now() / 1000),
  model: "scripted",
  choices: [{ index: 0, message: { role: "assistant", content: null, ...message }, finish_reason: finishReason }],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
});

/**
 * The scripted model: first it calls the recall tool with the user's message, then it answers with what the
 * tool returned (or says it remembers nothing), so the reply shows exactly what memory gave it.
 */
function scriptedChat(body: any) {
  const toolResult = body.messages.find((message: any) => message.role === "tool");
  if (!toolResult) {
    const question = body.messages.findLast((message: any) => message.role === "user").content;
    const call = {
      id: "call_recall",
      type: "function",
      function: { name: "recall", arguments: JSON.stringify({ query: question }) },
    };
    return { json: completion({ tool_calls: [call] }, "tool_calls") };
  }
  const recalled: { content: string }[] = JSON.parse(toolResult.content);
  const answer = recalled.length
    ? `From memory: ${recalled.map((memory) => memory.content).join(" | ")}`
    : "I remember nothing yet.";
  return { json: completion({ content: answer }, "stop") };
}

beforeAll(async () => {
  ({ server, apiKey } = await startHeadlessServer("Chat Example"));
  openai = await startOpenAIServer({ chat: scriptedChat });
  const memory = new MemoryGateway({ apiKey, baseUrl: server.base });
  const namespace = await memory.namespaces.create({ name: "chat-example" });
  const port = await freePort();
  example = spawn(process.execPath, ["--import", "tsx", "examples/ai-sdk-chat/main.ts"], {
    env: {
      ...process.env,
      MEMGW_BASE_URL: server.base,
      MEMGW_API_KEY: apiKey,
      MEMGW_NAMESPACE_ID: namespace.id,
      OPENAI_BASE_URL: openai.baseURL,
      OPENAI_apiKey: "sk-test",
      CHAT_MODEL: "scripted",
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const onOutput = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("Chat server listening")) resolve();
    };
    example.stdout!.on("data", onOutput);
    example.stderr!.on("data", onOutput);
    example.once("exit", (code) => reject(new Error(`the example exited with ${code}:\n${output}`)));
  });
  chatUrl = `http://127.0.0.1:${port}/chat`;
}, 600_000);

afterAll(async () => {
  if (example && example.exitCode === null) {
    const exited = new Promise((resolve) => example.once("exit", resolve));
    example.kill("SIGTERM");
    await exited;
  }
  await openai?.close();
  await server?.stop();
});

async function chat(user: string, message: string): Promise<{ reply: string; tool_calls: string[] }> {
  const response = await fetch(chatUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ user, message }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** The system prompts the model was given for `message`: of each chat's first request (before any tool result). */
const systemPromptsFor = (message: string): string[] =>
  openai.requests
    .filter((request) => request.path.endsWith("/chat/completions"))
    .map((request) => request.body.messages)
    .filter((messages) => messages.at(-1).role === "user" && messages.at(-1).content === message)
    .map((messages) => messages[0].content);

test("a fact told in one chat is recalled in a later chat of the same user, and not in another user's", async () => {
  const first = await chat("alice", "My favourite colour is teal.");
  expect(first).toEqual({ reply: "I remember nothing yet.", tool_calls: ["recall"] });
  await chat("bob", "My favourite colour is orange.");

  const alice = await chat("alice", "What is my favourite colour?");
  expect(alice.tool_calls).toEqual(["recall"]);
  expect(alice.reply).toContain("My favourite colour is teal.");
  expect(alice.reply).not.toContain("orange");

  const bob = await chat("bob", "What is my favourite colour?");
  expect(bob.reply).toContain("My favourite colour is orange.");
  expect(bob.reply).not.toContain("teal");

  // The memories went into the system prompt too, each user's own.
  const [alicePrompt, bobPrompt] = systemPromptsFor("What is my favourite colour?");
  expect(alicePrompt).toContain("My favourite colour is teal.");
  expect(alicePrompt).not.toContain("orange");
  expect(bobPrompt).toContain("My favourite colour is orange.");
  expect(bobPrompt).not.toContain("teal");
});

test("a request without a user or a message is a 400", async () => {
  const response = await fetch(chatUrl, { method: "POST", body: JSON.stringify({ user: "alice" }) });
  expect(response.status).toBe(400);
  expect((await response.json()).error).toMatch(/non-empty strings/);
});
