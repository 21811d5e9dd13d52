import http from "node:http";
import type { AddressInfo } from "node:net";
import { memoryTools, recalledContext, rememberConversation } from "@memory-gateway/ai-sdk";
import type { MemoryGateway } from "@memory-gateway/client";
import { generateText, stepCountIs, type LanguageModel } from "ai";
import { z } from "zod";

export interface ChatOptions {
  memory: MemoryGateway;
  namespaceId: string;
  model: LanguageModel;
}

const INSTRUCTIONS =
  "You are a helpful assistant with long-term memory of each user. Use the recall tool to look up what you know " +
  "about the user before answering questions about them, and the remember tool to store lasting facts they tell you.";

/**
 * One turn of a user's chat: what is remembered about the user goes into the system prompt, the model may
 * recall, remember and ask through the memory tools, and the exchange is remembered as turns of the user's
 * conversation. Each user's memories are theirs alone (`identity_id` is the user).
 */
export async function chat({ memory, namespaceId, model }: ChatOptions, user: string, message: string) {
  const target = { client: memory, namespaceId, identityId: user };
  const context = await recalledContext({ ...target, query: message });
  const { text, steps } = await generateText({
    model,
    system: context ? `${INSTRUCTIONS}\n\n${context}` : INSTRUCTIONS,
    prompt: message,
    tools: memoryTools(target),
    stopWhen: stepCountIs(5),
  });
  await rememberConversation({
    ...target,
    sessionId: `chat-${user}`,
    messages: [
      { role: "user", content: message },
      { role: "assistant", content: text },
    ],
  });
  const toolCalls = steps.flatMap((step) => step.toolCalls.map((call) => call.toolName));
  return { reply: text, tool_calls: toolCalls };
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const ChatRequest = z.object({
  user: z.string().trim().min(1).max(255),
  message: z.string().trim().min(1).max(4_000),
});

async function readChatRequest(request: http.IncomingMessage): Promise<z.infer<typeof ChatRequest>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk);
  try {
    return ChatRequest.parse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
  } catch {
    throw new HttpError(400, 'The body must be JSON: {"user": "…", "message": "…"}, both non-empty strings');
  }
}

/** `POST /chat {user, message}` → `{reply, tool_calls}`; listening on `port` (0: any free port). */
export async function startChatServer(options: ChatOptions, port: number) {
  const server = http.createServer(async (request, response) => {
    const reply = (status: number, json: unknown) =>
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
    if (request.method !== "POST" || request.url !== "/chat") return reply(404, { error: "POST /chat only" });
    try {
      const { user, message } = await readChatRequest(request);
      reply(200, await chat(options, user, message));
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      reply(status, { error: error instanceof Error ? error.message : String(error) });
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
