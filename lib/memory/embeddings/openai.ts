import type OpenAI from "openai";
import { setting } from "@/lib/config";
import { UpstreamError } from "@/lib/errors";
import { openAIClient } from "@/lib/net/openai-client";
import { assertDimensions, EMBEDDING_DIMENSIONS, normalize, type EmbeddingProvider } from "./provider";

const MAX_TEXTS_PER_CALL = 128;

/**
 * Any OpenAI-compatible embeddings endpoint (OpenAI, Azure, Ollama, vLLM, LM Studio, TEI), chosen with
 * EMBEDDING_PROVIDER=openai. Vectors are requested at the database's 512 dimensions.
 */
export class OpenAIEmbeddingProvider implements EmbeddingProvider {
  readonly dimensions = EMBEDDING_DIMENSIONS;
  readonly model: string;
  private readonly client: OpenAI;

  constructor() {
    this.model = setting("EMBEDDING_MODEL") || "text-embedding-3-small";
    this.client = openAIClient({ maxRetries: 2 });
  }

  async embed(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let start = 0; start < texts.length; start += MAX_TEXTS_PER_CALL) {
      let vectors: number[][];
      try {
        const response = await this.client.embeddings.create({
          model: this.model,
          input: texts.slice(start, start + MAX_TEXTS_PER_CALL),
          dimensions: this.dimensions,
          // Plain floats: not every OpenAI-compatible server speaks the SDK's default base64.
          encoding_format: "float",
        });
        vectors = [...response.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
        assertDimensions(this.model, vectors);
      } catch (error) {
        throw new UpstreamError(`The embedding provider (${this.model}) failed: ${(error as Error).message}`);
      }
      out.push(...vectors.map((vector) => normalize(vector)));
    }
    return out;
  }

  async close(): Promise<void> {}
}
