// Fairness between organizations over HTTP against the production build (`npm start`): one organization
// sends a batch of 100 memories of 52,000 characters in one request, and while it runs another
// organization sends single memories one after another; their latency is what is measured.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startServer } from "../tests/helpers/server";
import { apiCaller, embeddingsReady } from "./lib/api-client";
import { loadDataset } from "./lib/beir";
import { percentile } from "./lib/percentile";

export interface FairnessResult {
  batchMemories: number;
  batchChars: number;
  batchChunks: number;
  /** How long the large batch took, from its request to its answer. */
  batchSeconds: number;
  singles: number;
  /** Single remembers that finished while the batch was still running (all of them, when it is fair). */
  singlesDuringBatch: number;
  p50: number;
  p95: number;
  max: number;
}

const BATCH = 100;
const BATCH_CHARS = 52_000;
const SINGLES = 20;

export async function measureFairness(options: {
  datasetsDir: string;
  log: (line: string) => void;
}): Promise<FairnessResult> {
  const scifact = loadDataset(options.datasetsDir, "scifact");
  const corpus = scifact.docs.map((d) => (d.title ? `${d.title}\n${d.text}` : d.text));
  // Each long memory is consecutive abstracts of the corpus, so that every one is distinct prose.
  let next = 0;
  const documents = Array.from({ length: BATCH }, () => {
    let text = "";
    while (text.length < BATCH_CHARS) text += corpus[next++ % corpus.length] + "\n\n";
    return text.slice(0, BATCH_CHARS);
  });
  const singles = scifact.queries.slice(0, SINGLES).map((q) => `Note for later: ${q.text}`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-fairness-"));
  const bulkKey = "mgw_benchmarkBulkKey0000000000000000000000";
  const env = {
    DATA_DIR: dataDir,
    PORT: process.env.BENCH_PORT || String(await freePort()),
    MEMGW_INIT_ORG_NAME: "Bulk importer",
    MEMGW_INIT_USER_EMAIL: "bench@example.com",
    MEMGW_INIT_USER_PASSWORD: "benchmark password",
    MEMGW_INIT_API_KEY: bulkKey,
  };
  const server = await startServer(env);
  try {
    // The other organization and its key, made through the running server (the admin command line).
    const cli = (args: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, ["bin/memgw.mjs", ...args], {
          env: { ...process.env, DATA_DIR: dataDir },
          encoding: "utf8",
        }),
      );
    const otherOrg = cli(["org", "create", "--name", "Chat app"]);
    const otherKey = cli([
      "key",
      "create",
      "--org",
      otherOrg.id,
      "--name",
      "chat",
      "--permissions",
      "NAMESPACE_READ,NAMESPACE_WRITE,NAMESPACE_MANAGE",
    ]).secret;

    const call = (key: string, urlPath: string, body: unknown) => apiCaller(server.base, key)("POST", urlPath, body);
    await embeddingsReady(server.base);
    const bulkNamespace = await call(bulkKey, "/namespaces", { name: "import" });
    const chatNamespace = await call(otherKey, "/namespaces", { name: "chat" });
    // One unmeasured remember each, so that neither pays for first-use compilation in the measure.
    await call(bulkKey, "/remember", { namespace_id: bulkNamespace.id, content: "warm-up" });
    await call(otherKey, "/remember", { namespace_id: chatNamespace.id, content: "warm-up" });

    const batchStarted = performance.now();
    let batchDone = false;
    const batch = call(bulkKey, "/remember", {
      namespace_id: bulkNamespace.id,
      memories: documents.map((content) => ({ content })),
    }).then((stored: { chunk_count: number }[]) => {
      batchDone = true;
      return stored;
    });
    // Let the 5 MB request arrive and its chunks be queued before the first single memory is sent.
    await new Promise((r) => setTimeout(r, 3000));
    const latencies: number[] = [];
    let singlesDuringBatch = 0;
    for (const content of singles) {
      const t = performance.now();
      await call(otherKey, "/remember", { namespace_id: chatNamespace.id, content });
      latencies.push(performance.now() - t);
      if (!batchDone) singlesDuringBatch++;
    }
    latencies.sort((a, b) => a - b);
    options.log(
      `  ${latencies.length} single remembers done (${singlesDuringBatch} while the batch ran); waiting for the batch`,
    );
    const stored = await batch;
    const batchSeconds = (performance.now() - batchStarted) / 1000;
    const result: FairnessResult = {
      batchMemories: BATCH,
      batchChars: BATCH_CHARS,
      batchChunks: stored.reduce((sum, m) => sum + m.chunk_count, 0),
      batchSeconds,
      singles: latencies.length,
      singlesDuringBatch,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      max: latencies[latencies.length - 1],
    };
    options.log(
      `  batch of ${BATCH} × ${BATCH_CHARS.toLocaleString("en")} characters ` +
        `(${result.batchChunks} chunks): ${batchSeconds.toFixed(1)} s; ` +
        `meanwhile another organization's single remember ` +
        `(${result.singlesDuringBatch}/${result.singles} during the batch): ` +
        `p50 ${result.p50.toFixed(0)} ms, p95 ${result.p95.toFixed(0)} ms, max ${result.max.toFixed(0)} ms`,
    );
    return result;
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
