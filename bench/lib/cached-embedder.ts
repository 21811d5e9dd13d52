import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { EmbeddingPriority, EmbeddingProvider } from "@/lib/memory/embeddings";

/** Wraps the real provider with a disk cache, so re-running the benchmark does not re-embed 10k documents. */
export class CachedEmbeddingProvider implements EmbeddingProvider {
  readonly model: string;
  readonly dimensions: number;
  private readonly cache = new Map<string, number[]>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly inner: EmbeddingProvider,
    private readonly file: string,
  ) {
    this.model = inner.model;
    this.dimensions = inner.dimensions;
    if (fs.existsSync(file)) {
      for (const line of fs.readFileSync(file, "utf8").split("\n")) {
        if (!line) continue;
        const { h, v } = JSON.parse(line);
        const bytes = Buffer.from(v, "base64"); // small buffers share Node's pool: mind the offset
        this.cache.set(h, Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)));
      }
    }
  }

  /**
   * A query's vector is kept apart from a memory's of the same text: its products may run in lower precision
   * (createForwardPass in lib/memory/embeddings/use-lite-forward.mjs). A memory's key is the one it always had.
   */
  private key(text: string, priority: EmbeddingPriority) {
    const hash = createHash("sha1").update(this.model).update("\0");
    if (priority === "query") hash.update("query\0");
    return hash.update(text).digest("hex");
  }

  async embed(texts: string[], priority: EmbeddingPriority): Promise<number[][]> {
    const keys = texts.map((t) => this.key(t, priority));
    const missing = [...new Set(keys.map((k, i) => (this.cache.has(k) ? -1 : i)).filter((i) => i >= 0))];
    this.hits += texts.length - missing.length;
    this.misses += missing.length;
    if (missing.length) {
      const vectors = await this.inner.embed(
        missing.map((i) => texts[i]),
        priority,
      );
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const lines = missing.map((i, j) => {
        this.cache.set(keys[i], vectors[j]);
        return JSON.stringify({ h: keys[i], v: Buffer.from(new Float32Array(vectors[j]).buffer).toString("base64") });
      });
      fs.appendFileSync(this.file, lines.join("\n") + "\n");
    }
    return keys.map((k) => this.cache.get(k)!);
  }

  close() {
    return this.inner.close();
  }
}
