import { LocalEmbeddingProvider } from "./local";
import { OpenAIEmbeddingProvider } from "./openai";
import type { EmbeddingProvider } from "./provider";

export type { EmbeddingPriority, EmbeddingProvider, EmbeddingRequester } from "./provider";

const holder = globalThis as typeof globalThis & {
  __memgwEmbedder?: EmbeddingProvider;
  __memgwEmbedderReady?: boolean;
};

/** The process's embedding provider (EMBEDDING_PROVIDER: `local`, the default, or `openai`), loaded once. */
export function embedder(): EmbeddingProvider {
  if (!holder.__memgwEmbedder) {
    const kind = process.env.EMBEDDING_PROVIDER || "local";
    if (kind === "local") holder.__memgwEmbedder = new LocalEmbeddingProvider();
    else if (kind === "openai") holder.__memgwEmbedder = new OpenAIEmbeddingProvider();
    else throw new Error(`EMBEDDING_PROVIDER must be "local" or "openai", not "${kind}".`);
  }
  return holder.__memgwEmbedder;
}

/** Loads the model now instead of on the first request. */
export async function warmUpEmbedder(): Promise<void> {
  const provider = embedder();
  if (provider instanceof LocalEmbeddingProvider) await provider.ready();
  await provider.embed(["warm up"], "query");
  holder.__memgwEmbedderReady = true;
}

export function embedderReady(): boolean {
  return holder.__memgwEmbedderReady === true;
}

export async function closeEmbedder(): Promise<void> {
  const provider = holder.__memgwEmbedder;
  holder.__memgwEmbedder = undefined;
  holder.__memgwEmbedderReady = false;
  await provider?.close();
}
