/** Queries are waited on by a person; ingestion can wait for them. */
export type EmbeddingPriority = "query" | "ingest";

/** Whom an ingestion is for: a provider that queues work shares it fairly between organizations, then keys. */
export interface EmbeddingRequester {
  orgId: string;
  keyId?: string;
}

export interface EmbeddingProvider {
  /** Recorded on every chunk: vectors of different models are never compared. */
  readonly model: string;
  readonly dimensions: number;
  embed(texts: string[], priority: EmbeddingPriority, requester?: EmbeddingRequester): Promise<number[][]>;
  close(): Promise<void>;
}

export const EMBEDDING_DIMENSIONS = 512;

/** Unit length, so cosine similarity is a dot product and vectors of any provider compare alike. */
export function normalize(vector: ArrayLike<number>): number[] {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i];
  norm = Math.sqrt(norm) || 1;
  return Array.from(vector, (value) => value / norm);
}

export function assertDimensions(model: string, vectors: number[][]) {
  for (const vector of vectors) {
    if (vector.length !== EMBEDDING_DIMENSIONS) {
      throw new Error(
        `Embedding model ${model} returned ${vector.length} dimensions; the database stores ${EMBEDDING_DIMENSIONS}.`,
      );
    }
  }
}
