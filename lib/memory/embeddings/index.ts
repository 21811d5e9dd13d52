import { setting } from "@/lib/config";
import { embedderHolder as holder, queryCache } from "./embedder-state";
import { LocalEmbeddingProvider } from "./local";
import { OpenAIEmbeddingProvider } from "./openai";
import type { EmbeddingProvider } from "./provider";

export type { EmbeddingPriority, EmbeddingProvider, EmbeddingRequester } from "./provider";
export { closeEmbedder } from "./embedder-state";

/** The process's embedding provider (EMBEDDING_PROVIDER: `local`, the default, or `openai`), loaded once. */
export function embedder(): EmbeddingProvider {
  if (!holder.__memgwEmbedder) {
    holder.__memgwEmbedder =
      setting("EMBEDDING_PROVIDER") === "openai" ? new OpenAIEmbeddingProvider() : new LocalEmbeddingProvider();
  }
  return holder.__memgwEmbedder;
}

/** The embedding of one query, from the cache when the organization asked the same text of this model lately. */
export function embedQuery(orgId: string, text: string): Promise<number[]> {
  const provider = embedder();
  const key = `${orgId}\0${provider.model}\0${text}`;
  const cached = queryCache.get(key);
  if (cached) return cached;
  const vector = provider.embed([text], "query").then(([embedded]) => embedded);
  queryCache.set(key, vector);
  // A failure is not kept: the next request tries again.
  vector.catch(() => queryCache.get(key) === vector && queryCache.delete(key));
  return vector;
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
