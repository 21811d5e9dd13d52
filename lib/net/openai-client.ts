import OpenAI from "openai";
import { setting } from "@/lib/config";

/** Time-out of every call to the OpenAI-compatible endpoint (embeddings and chat). */
export function openAITimeoutMs(): number {
  return setting("OPENAI_TIMEOUT_MS");
}

/** Whether an OpenAI-compatible endpoint is configured: then `ask` has a chat model write its answers. */
export function openAIConfigured(): boolean {
  return Boolean(setting("OPENAI_API_KEY") || setting("OPENAI_BASE_URL"));
}

/** The chat model that answers `ask` and extracts facts (`infer`): CHAT_MODEL, gpt-4o-mini by default. */
export function chatModel(): string {
  return setting("CHAT_MODEL") || "gpt-4o-mini";
}

/** A client of the configured OpenAI-compatible endpoint (OpenAI, Azure, Ollama, vLLM, LM Studio, TEI). */
export function openAIClient(options: { maxRetries: number }): OpenAI {
  return new OpenAI({
    // Local servers (Ollama, vLLM) need no key, but the SDK refuses to start without one.
    apiKey: setting("OPENAI_API_KEY") || "not-needed",
    baseURL: setting("OPENAI_BASE_URL"),
    timeout: openAITimeoutMs(),
    maxRetries: options.maxRetries,
  });
}
