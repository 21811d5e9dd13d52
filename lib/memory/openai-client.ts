import OpenAI from "openai";

/** Time-out of every call to the OpenAI-compatible endpoint (embeddings and chat). */
export function openAITimeoutMs(): number {
  return Number(process.env.OPENAI_TIMEOUT_MS || 30_000);
}

/** Whether an OpenAI-compatible endpoint is configured: then `ask` has a chat model write its answers. */
export function openAIConfigured(): boolean {
  return Boolean(process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL);
}

/** A client of the configured OpenAI-compatible endpoint (OpenAI, Azure, Ollama, vLLM, LM Studio, TEI). */
export function openAIClient(options: { maxRetries: number }): OpenAI {
  return new OpenAI({
    // Local servers (Ollama, vLLM) need no key, but the SDK refuses to start without one.
    apiKey: process.env.OPENAI_API_KEY || "not-needed",
    baseURL: process.env.OPENAI_BASE_URL || undefined,
    timeout: openAITimeoutMs(),
    maxRetries: options.maxRetries,
  });
}
