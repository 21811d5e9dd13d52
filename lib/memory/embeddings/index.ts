import { setting } from "@/lib/config";
import { RecentlyUsed } from "../common/recently-used";
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
    holder.__memgwEmbedder =
      setting("EMBEDDING_PROVIDER") === "openai" ? new OpenAIEmbeddingProvider() : new LocalEmbeddingProvider();
  }
  return holder.__memgwEmbedder;
}

/**
 * Query embeddings kept, most recently used last: agents ask the same questions again, and an embedding
 * is most of what a short recall waits for. A vector depends only on the model and the exact text; it is
 * kept per organization all the same, so that how fast a recall answers never tells one organization
 * what another asked.
 */
const queryCache = new RecentlyUsed<string, Promise<number[]>>(2_000);

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

export async function closeEmbedder(): Promise<void> {
  const provider = holder.__memgwEmbedder;
  holder.__memgwEmbedder = undefined;
  holder.__memgwEmbedderReady = false;
  queryCache.clear();
  await provider?.close();
}
