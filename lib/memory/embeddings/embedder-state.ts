// The process's embedding provider and its query cache, apart from the providers themselves: closing them must
// not load a model's code (the CLI closes the embedder after every command it runs, most of which never embed).
import { RecentlyUsed } from "../common/recently-used";
import type { EmbeddingProvider } from "./provider";

/** On globalThis: Next's bundles and the CLI's loader may each load this module, and a process has one provider. */
export const embedderHolder = globalThis as typeof globalThis & {
  __memgwEmbedder?: EmbeddingProvider;
  __memgwEmbedderReady?: boolean;
};

/**
 * Query embeddings kept, most recently used last: agents ask the same questions again, and an embedding
 * is most of what a short recall waits for. A vector depends only on the model and the exact text; it is
 * kept per organization all the same, so that how fast a recall answers never tells one organization
 * what another asked.
 */
export const queryCache = new RecentlyUsed<string, Promise<number[]>>(2_000);

/** Stops the provider's workers (if one was made) and forgets the kept query embeddings. */
export async function closeEmbedder(): Promise<void> {
  const provider = embedderHolder.__memgwEmbedder;
  embedderHolder.__memgwEmbedder = undefined;
  embedderHolder.__memgwEmbedderReady = false;
  queryCache.clear();
  await provider?.close();
}
