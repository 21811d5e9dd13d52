// The chat server, configured from the environment: see README.md.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { MemoryGateway } from "@memory-gateway/client";
import { startChatServer } from "./chat.ts";

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`Set ${name} (see examples/ai-sdk-chat/README.md).`);
    process.exit(1);
  }
  return value;
}

const provider = createOpenAICompatible({
  name: "openai",
  baseURL: process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
  apiKey: process.env.OPENAI_API_KEY,
});
// MemoryGateway reads MEMGW_BASE_URL and MEMGW_API_KEY from the environment.
const { port } = await startChatServer(
  {
    memory: new MemoryGateway(),
    namespaceId: required("MEMGW_NAMESPACE_ID"),
    model: provider.chatModel(process.env.CHAT_MODEL ?? "gpt-4o-mini"),
  },
  Number(process.env.PORT ?? 3001),
);
console.log(`Chat server listening on http://127.0.0.1:${port}/chat`);
