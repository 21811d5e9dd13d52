import { expect, test } from "vitest";
import { LocalEmbeddingProvider } from "@/lib/memory/embeddings/local";

test("with two workers a query is embedded while a large ingestion is still running, and every vector comes back in order", async () => {
  const pool = new LocalEmbeddingProvider(2);
  try {
    await pool.ready();
    const texts = Array.from({ length: 192 }, (_, i) => `Note ${i}: the quarterly report for region ${i % 9} is due on day ${i % 28}.`);
    let ingestionDone = false;
    const ingestion = pool.embed(texts, "ingest").then((vectors) => {
      ingestionDone = true;
      return vectors;
    });
    const [query] = await pool.embed(["when is the quarterly report due?"], "query");
    expect(ingestionDone).toBe(false);
    expect(query).toHaveLength(512);

    const vectors = await ingestion;
    expect(vectors).toHaveLength(texts.length);
    // Each vector is its own text's: embedding one text alone gives the same vector.
    const [alone] = await pool.embed([texts[137]], "ingest");
    expect(alone.map((v) => v.toFixed(4))).toEqual(vectors[137].map((v) => v.toFixed(4)));
  } finally {
    await pool.close();
  }
});
