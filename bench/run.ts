// `npm run bench`: retrieval quality (lib/ functions) and HTTP latency/throughput (production build).
// Prints the figures with the machine, data size and commit; writes bench/results/*.json and docs/benchmarks.md.
// BENCH_MEMORIES (default 10000; 100000 for the large run), BENCH_DATA_DIR (keeps the latency section's data
// for the next run), BENCH_REPEAT (runs the latency section that many times, keeping each run's figures),
// BENCH_IDENTITIES=k (the latency section's memories belong to k identities),
// BENCH_ONLY=quality|calibration|knowledge-update|conversations|entities|latency|tenancy|fairness|console|sync
// |documents|webhooks|isolation|databases|report
// (report: rewrite docs/benchmarks.md from the saved results), BENCH_TENANCY_OTHERS (default 100000: the
// other organization's memories beside the measured namespaces), BENCH_CONSOLE_DATA_DIR (keeps the console
// section's 100,000 memories and 1,000,000 activity rows for the next run), BENCH_DATASETS_DIR (default
// bench/.cache/datasets; how to obtain the datasets: docs/benchmark-datasets.md), BENCH_DATABASE_URL (a
// PostgreSQL server with pgvector, for the databases section: the same load and recalls as on the embedded
// database, with one and two instances; and the webhooks section once more on it), BENCH_WEBHOOK_OUTAGE_SECONDS
// (default 60: the webhooks section's receiver outage; issue 35 asks for 600), BENCH_WEBHOOK_RATE and
// BENCH_WEBHOOK_RATE_SECONDS (default 100 writes/s for 20 s: the webhooks section's event-to-delivery measure),
// BENCH_WEBHOOK_SUSTAINED_RATE (its second stream; default 60% of the rate the first achieved), BENCH_WEBHOOK_BATCH
// (its third stream: the rate asked for as remember batches of this many memories; default 10),
// BENCH_WEBHOOK_OVERHEAD_ROUNDS (the write-overhead measure's rounds of two blocks of 20 writes; default 20).
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDatabase } from "@/lib/db";
import { closeEmbedder } from "@/lib/memory/embeddings";
import { buildIfNeeded } from "../scripts/build-if-needed.mjs";
import { calibrationSection, measureCalibration } from "./calibration";
import { measureConsole } from "./console";
import { measureDatabases, type DatabasesResult } from "./databases";
import { measureEntityExtractors } from "./entity-extractors";
import { measureFairness } from "./fairness";
import { measureLatency, SCOPE_VALUES, type LatencyResult, type RecallLatency } from "./latency";
import { answerSection, CATEGORIES, conversationSets, measureConversations, type Form } from "./conversations";
import { assertDatasetsPresent, datasetsDir as configuredDatasetsDir } from "./lib/beir";
import { measureQuality } from "./quality";
import { measureSync } from "./sync";
import { RECALL_WARM_UP_QUERIES } from "./lib/recalling-client";
import { measureDocumentFidelity, type FidelityRow } from "./documents";
import { measureDocumentIngestion, type DocumentIngestionResult } from "./document-ingestion";
import { measureIsolation, type IsolationResult } from "./isolation";
import { knowledgeUpdateSection, measureKnowledgeUpdate } from "./knowledge-update";
import type { RecallFigures } from "./lib/api-client";
import { measureTenancy, type TenancyResult } from "./tenancy";
import { measureWebhooks, type StreamFigures, type WebhooksResult } from "./webhooks";

const root = path.resolve(import.meta.dirname, "..");
const datasetsDir = configuredDatasetsDir();
const only = process.env.BENCH_ONLY;
if (only !== "report") {
  try {
    const scifactOnly =
      only === "fairness" || only === "console" || only === "sync" || only === "documents" || only === "webhooks";
    if (only !== "conversations" && only !== "entities" && only !== "isolation" && only !== "knowledge-update")
      assertDatasetsPresent(datasetsDir, scifactOnly ? ["scifact"] : ["scifact", "msmarco-trecdl-subset"]);
    if (only === undefined || only === "conversations" || only === "entities" || only === "calibration")
      conversationSets(datasetsDir);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
const machine = {
  cpu: os.cpus()[0]?.model.trim(),
  cores: os.cpus().length,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
};
const commit = execSync("git rev-parse --short HEAD", { cwd: root }).toString().trim();
const dirty = execSync("git status --porcelain", { cwd: root }).toString().trim() !== "";
const stamp = new Date().toISOString();
console.log(`Memory Gateway benchmark — commit ${commit}${dirty ? " (uncommitted changes)" : ""}, ${stamp}`);
console.log(
  `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ` +
    `Node ${machine.node}, ${machine.platform}`,
);

const resultsDir = path.join(root, "bench/results");
/**
 * How far SciFact's nDCG@10 beside the large run's memories may fall below the figure measured alone and
 * still count as unchanged: the HTTP path and lib/ rank the same, but a namespace past 500 chunks is
 * searched through its own (approximate) HNSW index.
 */
const QUALITY_TOLERANCE = 0.005;
fs.mkdirSync(resultsDir, { recursive: true });
const meta = { commit, dirty, date: stamp, machine };

let quality: Awaited<ReturnType<typeof measureQuality>> | undefined;
if (only === undefined || only === "quality") {
  console.log("\nQuality (nDCG@10, recall@100) through lib/ — embedded PGlite, local USE-lite embeddings:");
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-quality-"));
  process.env.MEMGW_PROCESS_ROLE = "benchmark";
  quality = await measureQuality({ datasetsDir, datasets: ["scifact", "msmarco-trecdl-subset"], log: console.log });
  await closeEmbedder();
  await closeDatabase();
  fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true });
  fs.writeFileSync(path.join(resultsDir, "quality.json"), JSON.stringify({ ...meta, rows: quality }, null, 2) + "\n");
}

if (only === undefined || only === "calibration") {
  console.log(
    "\nWhat a score means (calibration of recall's scores on the judged sets) through lib/ — embedded PGlite:",
  );
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-calibration-"));
  process.env.MEMGW_PROCESS_ROLE = "benchmark";
  const result = await measureCalibration({ datasetsDir, log: console.log });
  await closeEmbedder();
  await closeDatabase();
  fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true });
  fs.writeFileSync(path.join(resultsDir, "calibration.json"), JSON.stringify({ ...meta, ...result }, null, 2) + "\n");
}

if (only === undefined || only === "knowledge-update") {
  console.log(
    "\nFacts that change (knowledge-update dev: now@1, then@1, ask_now, ask_then) through lib/ — embedded PGlite:",
  );
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-knowledge-update-"));
  process.env.MEMGW_PROCESS_ROLE = "benchmark";
  const result = await measureKnowledgeUpdate({ datasetsDir, log: console.log });
  await closeEmbedder();
  await closeDatabase();
  fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true });
  fs.writeFileSync(
    path.join(resultsDir, "knowledge-update.json"),
    JSON.stringify({ ...meta, ...result }, null, 2) + "\n",
  );
}

if (only === undefined || only === "conversations") {
  console.log("\nConversations (LoCoMo evidence frac@10) through lib/ — embedded PGlite, local USE-lite embeddings:");
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-conversations-"));
  process.env.MEMGW_PROCESS_ROLE = "benchmark";
  const { rows, answers } = await measureConversations({ datasetsDir, log: console.log });
  await closeEmbedder();
  await closeDatabase();
  fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true });
  // A run of the answers alone keeps the recall rows of the last full run, and when they were measured.
  const saved = path.join(resultsDir, "conversations.json");
  const recallMeasured =
    process.env.BENCH_LOCOMO_ANSWERS === "only" && fs.existsSync(saved)
      ? recallMeasuredAt(JSON.parse(fs.readFileSync(saved, "utf8")))
      : { commit: meta.commit, date: meta.date };
  fs.writeFileSync(saved, JSON.stringify({ ...meta, recallMeasured, rows, answers }, null, 2) + "\n");
}

if (only === undefined || only === "entities") {
  console.log("\nEntity extractors on the LoCoMo development conversations (docs/entities.md), in-process:");
  const rows = measureEntityExtractors({ datasetsDir, log: console.log });
  fs.writeFileSync(path.join(resultsDir, "entities.json"), JSON.stringify({ ...meta, rows }, null, 2) + "\n");
}

let latency: Awaited<ReturnType<typeof measureLatency>> | undefined;
if (only === undefined || only === "latency") {
  const memories = Number(process.env.BENCH_MEMORIES || 10_000);
  console.log(`\nLatency and throughput over HTTP — production build, ${memories} memories:`);
  buildIfNeeded();
  // BENCH_REPEAT runs it again right after (this machine drifts by several percent within minutes); every
  // run is kept, the first as latency-N.json, the others as latency-N-run2.json, …
  const repeat = Number(process.env.BENCH_REPEAT || 1);
  for (let run = 1; run <= repeat; run++) {
    if (repeat > 1) console.log(`  run ${run} of ${repeat}:`);
    latency = await measureLatency({ datasetsDir, memories, log: console.log });
    fs.writeFileSync(
      path.join(resultsDir, `latency-${memories}${run > 1 ? `-run${run}` : ""}.json`),
      JSON.stringify({ ...meta, date: new Date().toISOString(), run, ...latency }, null, 2) + "\n",
    );
  }
}

if (only === undefined || only === "tenancy") {
  const others = Number(process.env.BENCH_TENANCY_OTHERS || 100_000);
  console.log(`\nMulti-tenant search through lib/ — embedded PGlite, alone and beside ${others} other memories:`);
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-tenancy-"));
  process.env.MEMGW_PROCESS_ROLE = "benchmark";
  const tenancy = await measureTenancy({ datasetsDir, others, log: console.log });
  await closeEmbedder();
  await closeDatabase();
  fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true });
  fs.writeFileSync(path.join(resultsDir, "tenancy.json"), JSON.stringify({ ...meta, ...tenancy }, null, 2) + "\n");
}

if (only === undefined || only === "fairness") {
  console.log("\nFairness between organizations over HTTP — production build:");
  buildIfNeeded();
  const fairness = await measureFairness({ datasetsDir, log: console.log });
  fs.writeFileSync(path.join(resultsDir, "fairness.json"), JSON.stringify({ ...meta, ...fairness }, null, 2) + "\n");
}

if (only === undefined || only === "console") {
  console.log("\nConsole server render time — production build, 100,000 memories, 1,000,000 activity rows:");
  buildIfNeeded();
  const consoleResult = await measureConsole({ datasetsDir, log: console.log });
  fs.writeFileSync(
    path.join(resultsDir, "console.json"),
    JSON.stringify({ ...meta, ...consoleResult }, null, 2) + "\n",
  );
}

if (only === undefined || only === "sync") {
  console.log("\nRecall while an integration syncs — production build, GitHub on loopback:");
  buildIfNeeded();
  const sync = await measureSync({ datasetsDir, log: console.log });
  fs.writeFileSync(path.join(resultsDir, "sync.json"), JSON.stringify({ ...meta, ...sync }, null, 2) + "\n");
}

if (only === undefined || only === "documents") {
  console.log("\nDocuments: SciFact as PDF and DOCX files against the same corpus as text — lib/, embedded PGlite:");
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-documents-"));
  process.env.MEMGW_PROCESS_ROLE = "benchmark";
  const fidelity = await measureDocumentFidelity({ datasetsDir, log: console.log });
  await closeEmbedder();
  await closeDatabase();
  fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true });
  console.log("\nDocuments processed while a client recalls — production build, over HTTP:");
  buildIfNeeded();
  const ingestion = await measureDocumentIngestion({ datasetsDir, log: console.log });
  fs.writeFileSync(
    path.join(resultsDir, "documents.json"),
    JSON.stringify({ ...meta, fidelity, ingestion }, null, 2) + "\n",
  );
}

if (only === undefined || only === "webhooks") {
  console.log("\nWebhooks — production build, receivers on loopback:");
  buildIfNeeded();
  const webhooks = await measureWebhooks({ datasetsDir, log: console.log });
  fs.writeFileSync(path.join(resultsDir, "webhooks.json"), JSON.stringify({ ...meta, ...webhooks }, null, 2) + "\n");
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  if (postgresUrl) {
    console.log("\nWebhooks on PostgreSQL — production build, receivers on loopback:");
    const onPostgres = await measureWebhooks({ datasetsDir, log: console.log, postgresUrl });
    fs.writeFileSync(
      path.join(resultsDir, "webhooks-postgres.json"),
      JSON.stringify({ ...meta, ...onPostgres }, null, 2) + "\n",
    );
  }
}

if (only === undefined || only === "isolation") {
  console.log("\nResource isolation between organizations — production build, embedded database:");
  buildIfNeeded();
  const embedded = await measureIsolation({ log: console.log });
  fs.writeFileSync(path.join(resultsDir, "isolation.json"), JSON.stringify({ ...meta, ...embedded }, null, 2) + "\n");
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  if (postgresUrl) {
    console.log("\nResource isolation between organizations — production build, PostgreSQL:");
    const onPostgres = await measureIsolation({ log: console.log, postgresUrl });
    fs.writeFileSync(
      path.join(resultsDir, "isolation-postgres.json"),
      JSON.stringify({ ...meta, ...onPostgres }, null, 2) + "\n",
    );
  }
}

if (only === undefined || only === "databases") {
  const memories = Number(process.env.BENCH_MEMORIES || 10_000);
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  if (!postgresUrl) {
    console.log("\nEmbedded and PostgreSQL: skipped (BENCH_DATABASE_URL names no PostgreSQL server with pgvector).");
  } else {
    console.log(
      `\nThe embedded database and PostgreSQL, one and two instances — production build, ${memories} memories:`,
    );
    buildIfNeeded();
    const databases = await measureDatabases({ datasetsDir, memories, postgresUrl, log: console.log });
    fs.writeFileSync(
      path.join(resultsDir, "databases.json"),
      JSON.stringify({ ...meta, ...databases }, null, 2) + "\n",
    );
  }
}

writeReport();

function writeReport() {
  const read = (file: string) =>
    fs.existsSync(path.join(resultsDir, file))
      ? JSON.parse(fs.readFileSync(path.join(resultsDir, file), "utf8"))
      : undefined;
  const q = read("quality.json");
  const latencies = fs
    .readdirSync(resultsDir)
    .filter((f) => /^latency-\d+(-run\d+)?\.json$/.test(f))
    .map(read)
    .sort((a, b) => a.memories - b.memories || (a.run ?? 1) - (b.run ?? 1));
  const lines = [
    "# Benchmarks",
    "",
    "Produced by `npm run bench` (bench/run.ts); raw figures in `bench/results/*.json`; the datasets and how to " +
      "obtain them: [benchmark-datasets.md](benchmark-datasets.md).",
    "",
  ];
  if (q) {
    lines.push(
      `## Retrieval quality`,
      "",
      `Commit ${q.commit}, ${q.date}; ${q.machine.cpu}, ${q.machine.cores} cores. ` +
        "Embedded PGlite, local USE-lite (512-d) embeddings, memories = title + text, " +
        "through the same lib/ functions as the API.",
      "",
    );
    lines.push(
      "| dataset | docs | queries | search | nDCG@10 | recall@100 | ms/query |",
      "|---|---|---|---|---|---|---|",
    );
    for (const r of q.rows) {
      const mode =
        r.mode === "hybrid"
          ? "hybrid (default)"
          : r.mode === "vector"
            ? "vector only (pgvector cosine)"
            : `full-text only (BM25 k1=${r.bm25.k1} b=${r.bm25.b})`;
      lines.push(
        `| ${r.dataset} | ${r.docs} | ${r.queries} | ${mode} | ` +
          `${r.ndcg10.toFixed(3)} | ${r.recall100.toFixed(3)} | ${r.ms.toFixed(1)} |`,
      );
    }
    lines.push("");
  }
  const conv = read("conversations.json");
  if (conv) lines.push(...conversationSection(conv, q));
  const facts = read("knowledge-update.json");
  if (facts) lines.push(...knowledgeUpdateSection(facts));
  const calibration = read("calibration.json");
  if (calibration) lines.push(...calibrationSection(calibration));
  // The floor is measured by its own script (bench/relevance-floor.ts), whose page this one points to.
  lines.push(
    "## Relevance floor",
    "",
    "Measured by its own script, `bench/relevance-floor.ts` (it loads the sets again with each candidate floor):",
    "[benchmarks-relevance-floor.md](benchmarks-relevance-floor.md).",
    "",
  );
  if (conv) lines.push(...answerSection(conv));
  for (const l of latencies) {
    lines.push(
      `## Latency and throughput, ${l.memories} memories${l.run > 1 ? `, run ${l.run}` : ""}`,
      "",
      `Commit ${l.commit}, ${l.date}; ${l.machine.cpu}, ${l.machine.cores} cores, ${l.machine.memoryGiB} GiB. ` +
        "Production build (`npm start`), embedded PGlite, over HTTP on loopback " +
        `(the client: ${l.client ?? "fetch"}); ${l.chunksPerMemory.toFixed(2)} chunks per memory. ` +
        `Recall is measured after ${l.warmUpQueries ?? 300} unmeasured warm-up requests (other queries).`,
      "",
    );
    lines.push("| measure | value |", "|---|---|");
    const aroundLoad = l.rawEmbedderBeforeAfter
      ? ` (mean of ${l.rawEmbedderBeforeAfter.map((r: number) => r.toFixed(1)).join(" before and ")} after the load)`
      : "";
    const loadedBy = l.reusedLoadFrom
      ? ` — measured by the run that loaded the kept data (${l.reusedLoadFrom}), not this one`
      : "";
    lines.push(
      `| raw embedder (ingestion path) | ${l.rawEmbedderPerSecond.toFixed(1)} memories/s${aroundLoad}${loadedBy} |`,
    );
    lines.push(
      `| POST /remember, batches of ${l.rememberBatch}` +
        `${l.identities ? `, ${l.identities} identities (validity settled per memory)` : ""} | ` +
        `${l.rememberPerSecond.toFixed(1)} memories/s ` +
        `(${(l.rememberRatio * 100).toFixed(1)}% of the raw embedder)${loadedBy} |`,
    );
    for (const r of l.recall) {
      lines.push(
        `| POST /recall, concurrency ${r.concurrency} (${r.requests} distinct queries) | ` +
          `p50 ${r.p50.toFixed(1)} ms · p95 ${r.p95.toFixed(1)} ms · p99 ${r.p99.toFixed(1)} ms · ` +
          `${r.perSecond.toFixed(1)} req/s |`,
      );
    }
    for (const r of l.recall.filter((row: RecallLatency) => row.cpuMsPerRequest)) {
      const cpu = r.cpuMsPerRequest!;
      lines.push(
        `| … CPU per request at concurrency ${r.concurrency} | ` +
          `server main thread ${cpu.serverMainThread.toFixed(1)} ms · ` +
          (cpu.serverDatabaseThread === undefined
            ? ""
            : `database thread ${cpu.serverDatabaseThread.toFixed(1)} ms · `) +
          `its other threads ${cpu.serverOtherThreads.toFixed(1)} ms · client ${cpu.client.toFixed(1)} ms |`,
      );
    }
    if (l.recallOverRaw) {
      const i = l.recallOverRaw;
      lines.push(
        `| POST /recall, concurrency 8, ÷ the raw embedder in ${i.rounds} alternating rounds | ` +
          `${i.recallPerSecond.toFixed(1)} req/s ÷ ${i.raw.perSecond.toFixed(1)} memories/s (${i.raw.kernels}) = ` +
          `${i.ratio.toFixed(2)} |`,
      );
    }
    if (l.scopedRecall) {
      const figures = (r: { p50: number; p95: number; p99: number }) =>
        `p50 ${r.p50.toFixed(1)} ms · p95 ${r.p95.toFixed(1)} ms · p99 ${r.p99.toFixed(1)} ms`;
      const team = `1 of ${SCOPE_VALUES.length} teams`;
      lines.push(
        "| POST /recall, concurrency 1, interleaved with the next two: unscoped key | " +
          `${figures(l.scopedRecall.unscoped)} |`,
        `| … unscoped key, request \`scopes\` of ${team} | ${figures(l.scopedRecall.requestFiltered)} |`,
        `| … key scoped to ${team} (BM25 statistics over its memories) | ${figures(l.scopedRecall.keyScoped)} |`,
      );
    }
    if (l.serverRssMiB) {
      lines.push(`| server resident memory after the recalls | ${(l.serverRssMiB / 1024).toFixed(2)} GiB |`);
    }
    if (l.scifactBeside) {
      const beside = l.scifactBeside;
      lines.push(
        `| SciFact (${beside.docs} documents, ${beside.queries} queries) in a namespace of its own beside them, ` +
          `hybrid, top_k 100 | nDCG@10 ${beside.ndcg10.toFixed(3)} · recall@100 ${beside.recall100.toFixed(3)} · ` +
          `p50 ${beside.p50.toFixed(1)} ms · p95 ${beside.p95.toFixed(1)} ms |`,
      );
    }
    if (l.shortSmall) {
      const figures = (r: RecallLatency) =>
        `p50 ${r.p50.toFixed(1)} ms · p95 ${r.p95.toFixed(1)} ms · p99 ${r.p99.toFixed(1)} ms · ` +
        `${r.perSecond.toFixed(1)} req/s`;
      lines.push(
        `| POST /recall, concurrency 1, questions under 8 words (${l.shortSmall.requests}), namespace of ` +
          `${l.shortSmall.memories} memories | ${figures(l.shortSmall)} |`,
        `| … the same questions again (their embeddings kept by the server) | ${figures(l.shortSmall.repeated)} |`,
      );
    }
    lines.push("");
    if (l.longStages && l.shortSmall) {
      const columns = [l.longStages, l.shortSmall.stages, l.shortSmall.repeated.stages];
      const stages = [...new Set(columns.flatMap((column) => Object.keys(column)))].filter((s) => s !== "total");
      lines.push(
        "Where a recall's time goes at concurrency 1 (mean ms per request, from the server's `Server-Timing` " +
          "header with `MEMGW_SERVER_TIMING=1`). `embed` runs on a worker thread while `namespace` and `lexical` " +
          "run; `embed-wait` is what was left to wait for. `http` is the client's time less the server's total: " +
          "loopback HTTP, Next's routing, the client.",
        "",
        "| stage | long questions, this namespace | short questions, small namespace | the same again |",
        "|---|---|---|---|",
        ...[...stages, "total"].map(
          (stage) => `| ${stage} | ${columns.map((column) => (column[stage] ?? 0).toFixed(2)).join(" | ")} |`,
        ),
        "",
      );
    }
  }
  if (latencies.length) lines.push(...recallTargets(latencies, q));
  const t: (TenancyResult & typeof meta) | undefined = read("tenancy.json");
  if (t) {
    lines.push(
      "## Multi-tenant search",
      "",
      `Commit ${t.commit}, ${t.date}; ${t.machine.cpu}, ${t.machine.cores} cores. ` +
        "`BENCH_ONLY=tenancy npm run bench`: embedded PGlite, through lib/ (query vectors embedded beforehand: " +
        "the search alone). One organization's SciFact namespaces, a small one (the documents relevant to the " +
        "first queries, then others, evaluated on those queries) and the whole corpus, measured alone, then " +
        `beside ${t.others.toLocaleString("en")} memories of another organization's ${10} namespaces holding the ` +
        `same public corpora (loaded in ${t.othersLoadSeconds.toFixed(0)} s). "As shipped" scans a namespace of ` +
        `up to ${t.exactVectorScanLimit.toLocaleString("en")} chunks exactly and a larger one through its own ` +
        'HNSW index; "HNSW only" asks without the exact scan (a namespace too small for an index of its own is ' +
        "then sorted by the planner itself). top_k 100; latency over the measured pass after a warm one.",
      "",
      "| namespace | memories | queries | beside | vector leg | nDCG@10 | recall@100 | p50 | p95 |",
      "|---|---|---|---|---|---|---|---|---|",
    );
    for (const r of t.rows) {
      lines.push(
        `| ${r.namespace} | ${r.docs} | ${r.queries} | ${r.beside.toLocaleString("en")} | ${r.vectorLeg} | ` +
          `${r.ndcg10.toFixed(3)} | ${r.recall100.toFixed(3)} | ${r.p50.toFixed(1)} ms | ${r.p95.toFixed(1)} ms |`,
      );
    }
    lines.push("");
  }
  const isolationRuns: (IsolationResult & typeof meta)[] = ["isolation.json", "isolation-postgres.json"]
    .map(read)
    .filter(Boolean);
  if (isolationRuns.length > 0) lines.push(...isolationReport(isolationRuns));
  const f = read("fairness.json");
  if (f) {
    lines.push(
      `## Fairness between organizations`,
      "",
      `Commit ${f.commit}, ${f.date}; ${f.machine.cpu}, ${f.machine.cores} cores. ` +
        "Production build, embedded PGlite, over HTTP on loopback. " +
        `One organization sends ${f.batchMemories} memories of ${f.batchChars.toLocaleString("en")} characters ` +
        `in one request; while it runs, another organization sends ${f.singles} single memories one after another.`,
      "",
    );
    lines.push("| measure | value |", "|---|---|");
    lines.push(`| the batch (${f.batchChunks} chunks) | ${f.batchSeconds.toFixed(1)} s |`);
    lines.push(
      `| the other organization's POST /remember (${f.singlesDuringBatch} of ${f.singles} during the batch) | ` +
        `p50 ${f.p50.toFixed(0)} ms · p95 ${f.p95.toFixed(0)} ms · max ${f.max.toFixed(0)} ms |`,
    );
    lines.push("");
  }
  const c = read("console.json");
  if (c) {
    const loadedBy = c.reusedLoadFrom ? ` (the data loaded on ${c.reusedLoadFrom} and kept)` : "";
    lines.push(
      `## Console server render time`,
      "",
      `Commit ${c.commit}, ${c.date}; ${c.machine.cpu}, ${c.machine.cores} cores. ` +
        "Production build, embedded PGlite, over HTTP on loopback, signed in as the owner. One organization with " +
        `${c.memories.toLocaleString("en")} memories in ${c.namespaces} namespaces (80% in one), ` +
        `${c.activityRows.toLocaleString("en")} activity rows over 90 days and ${c.identities.toLocaleString("en")} ` +
        `identities, written with SQL${loadedBy}. Each page is fetched ${c.pages[0]?.requests} times in turn ` +
        "after 5 unmeasured requests; the time is from the request to the last byte of its HTML. Target: p95 ≤ 300 ms.",
      "",
    );
    lines.push("| page | p50 | p95 | max |", "|---|---|---|---|");
    for (const p of c.pages) {
      lines.push(`| ${p.page} | ${p.p50.toFixed(1)} ms | ${p.p95.toFixed(1)} ms | ${p.max.toFixed(1)} ms |`);
    }
    lines.push("");
  }
  const s = read("sync.json");
  if (s) {
    const recallFigures = (r: { p50: number; p95: number; p99: number }) =>
      `p50 ${r.p50.toFixed(1)} ms · p95 ${r.p95.toFixed(1)} ms · p99 ${r.p99.toFixed(1)} ms`;
    lines.push(
      `## Recall while an integration syncs`,
      "",
      `Commit ${s.commit}, ${s.date}; ${s.machine.cpu}, ${s.machine.cores} cores, ${s.machine.memoryGiB} GiB. ` +
        "`BENCH_ONLY=sync npm run bench`: production build, embedded PGlite, over HTTP on loopback, local " +
        `embeddings. One namespace holds ${s.memories.toLocaleString("en")} SciFact abstracts; one client recalls ` +
        "from it, one request after another, with the first eight words of SciFact claims (after " +
        `${RECALL_WARM_UP_QUERIES} unmeasured warm-up requests). Then a GitHub connection of the same organization ` +
        "(the tests' GitHub API on loopback, " +
        `its repository seeded with ${s.seededFiles} other abstracts as Markdown files) is completed, and its ` +
        "first sync embeds them into another namespace while the client goes on recalling until the sync is done.",
      "",
    );
    lines.push("| measure | value |", "|---|---|");
    lines.push(
      `| POST /recall, idle (${s.idle.requests} distinct queries) | ${recallFigures(s.idle)} |`,
      `| POST /recall, during the sync (${s.duringSync.requests} requests, the same queries in turn) | ` +
        `${recallFigures(s.duringSync)} |`,
      `| the sync (${s.documentsSynced} documents, from completing the connection to its end) | ` +
        `${s.syncSeconds.toFixed(1)} s · ${s.documentsPerSecond.toFixed(1)} documents/s |`,
    );
    const ratio = s.duringSync.p95 / s.idle.p95;
    lines.push(
      "",
      `Recall p95 is ${ratio.toFixed(1)}× its idle figure while the sync embeds: the embedder keeps one worker ` +
        "for queries, and a sync's documents are ingestion jobs taken in turn with the organization's other writes.",
    );
    lines.push("");
  }
  const docs: (DocumentsResult & typeof meta) | undefined = read("documents.json");
  if (docs) lines.push(...documentsSection(docs));
  const hooks: (WebhooksResult & typeof meta) | undefined = read("webhooks.json");
  if (hooks) lines.push(...webhooksSection(hooks));
  const hooksOnPostgres: (WebhooksResult & typeof meta) | undefined = read("webhooks-postgres.json");
  if (hooksOnPostgres) lines.push(...webhooksSection(hooksOnPostgres));
  const d: (DatabasesResult & typeof meta) | undefined = read("databases.json");
  if (d) lines.push(...databasesSection(d));
  // compare.json is the latest run; a run kept beside it (compare-<what>.json, renamed by hand) follows it.
  const comparisons = fs
    .readdirSync(resultsDir)
    .filter((file) => /^compare(-[\w.-]+)?\.json$/.test(file))
    .sort((a, b) => (a === "compare.json" ? -1 : b === "compare.json" ? 1 : a.localeCompare(b)));
  if (comparisons.length) lines.push("## Two commits side by side", "");
  for (const file of comparisons) {
    const compared: { date: string; machine: { cpu: string; cores: number }; report?: string[]; client?: string } =
      read(file);
    if (!compared.report) continue;
    if (file !== "compare.json") lines.push(`### An earlier run kept: bench/results/${file}`, "");
    lines.push(
      `${compared.date}; ${compared.machine.cpu}, ${compared.machine.cores} cores. ` +
        "`npm run bench:compare <commit>`: the latency section's load and recalls on both builds in one run " +
        `(production builds over HTTP on loopback; the client: ${compared.client ?? "fetch"}), ` +
        "the builds taking turns every 500 memories of the load and " +
        "every 49 queries, every query embedded anew; CPU per recall is the servers' threads " +
        "(and PostgreSQL's processes on this machine) over the measured recalls.",
      ...compared.report,
      "",
    );
  }
  fs.mkdirSync(path.join(root, "docs"), { recursive: true });
  fs.writeFileSync(path.join(root, "docs/benchmarks.md"), lines.join("\n"));
  console.log("\n" + lines.join("\n"));
}

interface DocumentsResult {
  fidelity: FidelityRow[];
  ingestion: DocumentIngestionResult;
}

/** Extraction fidelity (SciFact as files against the same corpus as text) and ingestion beside recall. */
function documentsSection(r: DocumentsResult & Meta): string[] {
  const base = (form: string) => r.fidelity.find((row) => row.form === form)?.ndcg10 ?? NaN;
  const against: Record<string, string> = { pdf: "text (standard-font characters)", docx: "text" };
  const lines = [
    "## Documents",
    "",
    `Commit ${r.commit}, ${r.date}; ${r.machine.cpu}, ${r.machine.cores} cores. ` +
      "`BENCH_ONLY=documents npm run bench`. " +
      "Fidelity through lib/ (embedded PGlite, local embeddings): the SciFact corpus rendered by the benchmark to " +
      "PDF (pdf-lib; each abstract from a new page, its title in a larger bold font) and to DOCX (docx; each title " +
      "a heading), 500 abstracts a file, each file added as a document and processed; hybrid nDCG@10 over the " +
      "300 test claims, each passage counted as the abstract it came from. PDF's standard fonts draw Latin-1 only, " +
      "so the PDF is compared with the corpus sent as text with those same characters. Target: within 0.01.",
    "",
    "| form | files | pages | passages | nDCG@10 | against text | processing |",
    "|---|---|---|---|---|---|---|",
    ...r.fidelity.map((row) => {
      const delta = against[row.form] ? (row.ndcg10 - base(against[row.form])).toFixed(3) : "—";
      return (
        `| ${row.form} | ${row.files || "—"} | ${row.pages ?? "—"} | ${row.passages} | ${row.ndcg10.toFixed(3)} | ` +
        `${delta} | ${row.processingSeconds.toFixed(0)} s |`
      );
    }),
    "",
    "Ingestion over HTTP (production build, embedded PGlite): one client recalls from a namespace of " +
      `${r.ingestion.memories.toLocaleString("en")} SciFact abstracts, one request after another, while a text PDF ` +
      "and then scanned pages (PNG, read by OCR) are added to another namespace of the same organization. Target: " +
      "recall p95 during the PDF within 1.5× idle.",
    "",
    "| measure | documents | pages | pages/s | recall p50 | recall p95 |",
    "|---|---|---|---|---|---|",
    `| idle | — | — | — | ${r.ingestion.idle.p50.toFixed(1)} ms | ${r.ingestion.idle.p95.toFixed(1)} ms |`,
    ...(["pdf", "ocr"] as const).map((kind) => {
      const f = r.ingestion[kind];
      const label = kind === "pdf" ? "a text PDF" : "scanned pages (OCR)";
      return (
        `| ${label} | ${f.documents} | ${f.pages} | ${f.pagesPerSecond.toFixed(2)} | ${f.recall.p50.toFixed(1)} ms | ` +
        `${f.recall.p95.toFixed(1)} ms (${(f.recall.p95 / r.ingestion.idle.p95).toFixed(2)}× idle) |`
      );
    }),
    "",
  ];
  return lines;
}

/** Webhooks: what subscribed endpoints cost a write, event-to-delivery latency, an outage, a kill -9. */
function webhooksSection(r: WebhooksResult & Meta): string[] {
  const { overhead: o, outage: u, kill: k } = r;
  const { offered, sustained, batched, forgotten, forgottenInBatches } = r.delivery;
  const onPostgres = r.database.startsWith("PostgreSQL");
  const mark = (met: boolean) => (met ? "met" : "**not met**");
  /** A stream met the delivery target: p95 within 2 s, at (nearly) the rate offered. */
  const met = (f: StreamFigures) => f.sentToDelivery.p95 <= 2000 && f.achievedPerSecond >= f.targetPerSecond * 0.95;
  const pct = (ratio: number) => `${ratio >= 1 ? "+" : ""}${((ratio - 1) * 100).toFixed(1)}%`;
  const cpu = (c: WebhooksResult["overhead"]["serverCpuMsPerWrite"]["withEndpoints"]) =>
    `${(c.main + c.database + c.other).toFixed(1)} ms`;
  const stream = (f: StreamFigures, what = "") =>
    `| ${what}${f.targetPerSecond}/s offered for ${f.seconds} s` +
    (f.perRequest > 1 ? `, batches of ${f.perRequest}` : "") +
    ` | ${f.achievedPerSecond.toFixed(1)}/s | ` +
    `${f.write.p50.toFixed(0)} / ${f.write.p95.toFixed(0)} ms | ` +
    `${f.sentToDelivery.p50.toFixed(0)} / ${f.sentToDelivery.p95.toFixed(0)} ms | ` +
    `${f.answeredToDelivery.p50.toFixed(0)} / ${f.answeredToDelivery.p95.toFixed(0)} ms |`;
  return [
    onPostgres ? "## Webhooks on PostgreSQL" : "## Webhooks",
    "",
    `Commit ${r.commit}, ${r.date}; ${r.machine.cpu}, ${r.machine.cores} cores. ` +
      (onPostgres
        ? "`BENCH_ONLY=webhooks BENCH_DATABASE_URL=… npm run bench`"
        : "`BENCH_ONLY=webhooks npm run bench`") +
      `: production build, ${r.database}` +
      (onPostgres ? " on the same machine (its CPU is not in the server CPU figures)" : "") +
      ", receivers on loopback verifying every signature with the `standardwebhooks` package (failures: " +
      `${r.signatureFailures}). Writes are POST /remember of one memory (a SciFact abstract's first 300 characters); ` +
      "each memory.created message is matched to its write by the memory id it carries. The API's rate limit is " +
      "off for the first server (parts 1 and 2).",
    "",
    "| target | figure | |",
    "|---|---|---|",
    `| a write with ${o.endpoints} subscribed endpoints within 10% of one with none (${o.withEndpoints.requests} ` +
      `sequential writes each, alternating blocks of ${o.blockSize}) | p50 ${o.withEndpoints.p50.toFixed(1)} vs ` +
      `${o.withoutEndpoints.p50.toFixed(1)} ms (${pct(o.p50Ratio)}), p95 ${o.withEndpoints.p95.toFixed(1)} vs ` +
      `${o.withoutEndpoints.p95.toFixed(1)} ms (${pct(o.p95Ratio)}); server CPU per write ` +
      `${cpu(o.serverCpuMsPerWrite.withEndpoints)} vs ${cpu(o.serverCpuMsPerWrite.withoutEndpoints)}` +
      (o.benchCpuMsPerWrite
        ? `; the benchmark's client and loopback receivers, on the same cores: ` +
          `${o.benchCpuMsPerWrite.withEndpoints.toFixed(1)} vs ${o.benchCpuMsPerWrite.withoutEndpoints.toFixed(1)} ms`
        : "") +
      " | " +
      `${mark(o.p50Ratio <= 1.1 && o.p95Ratio <= 1.1)} |`,
    `| event-to-delivery p95 ≤ 2 s at ${offered.targetPerSecond} writes/s | ` +
      `${offered.achievedPerSecond.toFixed(1)} writes/s achieved; write sent → received p95 ` +
      `${(offered.sentToDelivery.p95 / 1000).toFixed(1)} s | ` +
      `${mark(met(offered))} |`,
    `| … at ${sustained.targetPerSecond} writes/s (what this machine sustains) | write sent → received p95 ` +
      `${(sustained.sentToDelivery.p95 / 1000).toFixed(2)} s | ${mark(sustained.sentToDelivery.p95 <= 2000)} |`,
    `| … at ${batched.targetPerSecond} memories/s written as batches of ${batched.perRequest} | ` +
      `${batched.achievedPerSecond.toFixed(1)} memories/s achieved; write sent → received p95 ` +
      `${(batched.sentToDelivery.p95 / 1000).toFixed(2)} s | ` +
      `${mark(met(batched))} |`,
    `| … at ${forgotten.targetPerSecond} writes/s that need no embedding (POST /forget of one memory each; ` +
      `memory.deleted) | ${forgotten.achievedPerSecond.toFixed(1)} writes/s achieved; write sent → received ` +
      `p95 ${(forgotten.sentToDelivery.p95 / 1000).toFixed(2)} s | ${mark(met(forgotten))} |`,
    `| … at ${forgottenInBatches.targetPerSecond} memories/s forgotten ${forgottenInBatches.perRequest} a request ` +
      `(memory.deleted) | ${forgottenInBatches.achievedPerSecond.toFixed(1)} memories/s achieved; write sent → ` +
      `received p95 ${(forgottenInBatches.sentToDelivery.p95 / 1000).toFixed(2)} s | ` +
      `${mark(met(forgottenInBatches))} |`,
    `| a ${u.seconds} s outage (503, then refused) across ${u.namespaces} namespaces: every event, in order, none ` +
      `again after a 2xx | ${u.delivered} of ${u.written} delivered, ${u.outOfOrder} out of order, ` +
      `${u.againAfter2xx} again after a 2xx; backlog of ${u.backlogAtRecovery} drained ` +
      `${u.drainedSeconds.toFixed(1)} s after the receiver's return | ` +
      `${mark(u.missing === 0 && u.outOfOrder === 0 && u.againAfter2xx === 0)} |`,
    `| kill -9 during delivery: every event at least once, a duplicate only when the kill cut its first delivery | ` +
      `${k.delivered} of ${k.events} delivered; ${k.duplicates} duplicates: ${k.duplicatesUnansweredAtKill} cut by ` +
      `the kill, ${k.duplicatesAnsweredNotRecorded} answered but not yet recorded, ${k.duplicatesUnexplained} ` +
      `unexplained | ${mark(k.missing === 0 && k.duplicatesUnexplained === 0)} |`,
    "",
    "Event-to-delivery, writes to one namespace sent on schedule (open loop, at most 64 under way), p50 / p95 " +
      "(rates in memories, each one event):",
    "",
    "| stream | achieved | write latency | write sent → received | write answered → received |",
    "|---|---|---|---|---|",
    stream(offered),
    stream(sustained),
    stream(batched),
    stream(forgotten, "forgets, "),
    stream(forgottenInBatches, "forgets, "),
    "",
    ...([offered, sustained, batched, forgotten, forgottenInBatches].some((f) => f.answeredToDelivery.p50 < 0)
      ? [
          "A negative figure in the last column: the message came before the write's answer reached the client " +
            "(after its commit, the answer still waited its turn in the saturated server, while delivery has " +
            "connections of its own).",
          "",
        ]
      : []),
    ...(u.seconds < 600
      ? [
          `The outage lasted ${u.seconds} s; issue 35 asks for 600 s: ` +
            "`BENCH_WEBHOOK_OUTAGE_SECONDS=600 BENCH_ONLY=webhooks npm run bench`.",
          "",
        ]
      : []),
  ];
}

/** The same load and recalls on the embedded database and on PostgreSQL, with one and two instances. */
function databasesSection(d: DatabasesResult & Meta): string[] {
  const figures = (r: RecallLatency) =>
    `p50 ${r.p50.toFixed(1)} ms · p95 ${r.p95.toFixed(1)} ms · ${r.perSecond.toFixed(1)} req/s`;
  const lines = [
    "## The embedded database and PostgreSQL, one and two instances",
    "",
    `Commit ${d.commit}, ${d.date}; ${d.machine.cpu}, ${d.machine.cores} cores. ` +
      "`BENCH_ONLY=databases BENCH_DATABASE_URL=… npm run bench`: production build over HTTP on loopback, " +
      `${d.memories.toLocaleString("en")} memories (MS MARCO and SciFact passages) loaded through POST /remember ` +
      "(batches of 100, two in flight), then every SciFact and MS MARCO query recalled (top_k 10) after 300 " +
      `unmeasured warm-up requests. PostgreSQL ${d.postgres} runs on the same machine, with its default ` +
      "settings; with two instances, requests alternate between them. Every process shares the same two cores.",
    "",
    "| setup | remember | recall, concurrency 1 | recall, concurrency 8 |",
    "|---|---|---|---|",
  ];
  for (const setup of d.setups) {
    const [one, eight] = [1, 8].map((c) => setup.recall.find((r) => r.concurrency === c)!);
    const remember =
      setup.rememberPerSecond === undefined
        ? "(loaded by the row above)"
        : `${setup.rememberPerSecond.toFixed(1)} memories/s`;
    lines.push(`| ${setup.setup} | ${remember} | ${figures(one)} | ${figures(eight)} |`);
  }
  lines.push("");
  return lines;
}

type ConversationResults = Meta &
  Awaited<ReturnType<typeof measureConversations>> & { recallMeasured?: { commit: string; date: string } };

/** When the recall rows were measured (results written before this was recorded: the run's own commit). */
function recallMeasuredAt(conv: Meta & { recallMeasured?: { commit: string; date: string } }) {
  return conv.recallMeasured ?? { commit: conv.commit, date: conv.date };
}
type Meta = { commit: string; date: string; machine: { cpu: string; cores: number } };

/** The conversational set's section: frac@10 and recall@10 per question type, form and step. */
function conversationSection(
  conv: ConversationResults,
  quality?: Meta & { rows: { dataset: string; mode: string; ndcg10: number }[] },
) {
  // Declared here: the report is written by top-level code above, before module-level constants below exist.
  const FORM_LABELS: Record<Form, string> = {
    turns: "one memory per turn",
    "conversation, one role": 'conversation, every role "speaker"',
    conversation: "conversation (role = speaker's name)",
  };
  const scifact = quality?.rows.find((r) => r.dataset === "scifact" && r.mode === "hybrid");
  const categories = Object.values(CATEGORIES).map((name) => `${name} frac@10 (questions)`);
  const lines = [
    "## Conversations (LoCoMo evidence recall)",
    "",
    `Commit ${recallMeasuredAt(conv).commit}, ${recallMeasuredAt(conv).date}; ${conv.machine.cpu}, ` +
      `${conv.machine.cores} cores. ` +
      "`BENCH_ONLY=conversations npm run bench`: each LoCoMo conversation in a namespace of its own, stored through " +
      "remember either as one memory per turn (the turn's text, with the caption of a photo it shared) or in the " +
      "conversation form (one call per session: " +
      "`session_id`, messages with `role` = the speaker and `occurred_at` = the session's date); each question of " +
      "categories 1–4 asked through recall, top 10. frac@10: the share of a question's evidence turns in the top 10, " +
      "averaged over questions; recall@10: the share of questions with all their evidence there. " +
      "Conversations 1–5 are for development; when the full set is present, 6–10 are reported apart as held out. " +
      "The form with one role for every turn measures what indexing the speaker's name adds; rows other than " +
      "`recall` leave one step out, to show what it adds: neighbour evidence, or the speaker focus (a question " +
      "naming one speaker ranks that speaker's turns first), or an entity step (issue 33: the entities the question " +
      "names boost the memories mentioning them; the dates it names focus on what happened then; the second hop " +
      "lifts memories sharing rare entities with the best results), or what a turn tells (a turn of mostly " +
      "questions, or of fewer than 12 words, keeps part of its score), or the feedback step (turns resembling the " +
      "three best results gain); a step off by default has a row switching it " +
      "on at the weight it was measured at. ms/query: mean time of one search with its " +
      "query's embedding cached, on a machine that may be busy with other work; compare rows of one run.",
    "",
    `| conversations | form | search | ${categories.join(" | ")} | overall frac@10 | recall@10 | ms/query |`,
    `|---|---|---|${categories.map(() => "---|").join("")}---|---|---|`,
  ];
  for (const r of conv.rows) {
    const perCategory = r.categories.map((c) => `${c.frac10.toFixed(3)} (${c.questions})`).join(" | ");
    lines.push(
      `| ${r.set}: ${r.conversations} conversations, ${r.turns} turns | ${FORM_LABELS[r.form]} | ` +
        `${r.variant} | ${perCategory} | ${r.overall.frac10.toFixed(3)} | ${r.overall.recall10.toFixed(3)} | ` +
        `${r.ms.toFixed(1)} |`,
    );
  }
  lines.push("");
  if (scifact)
    lines.push(
      `SciFact nDCG@10 (hybrid, from the retrieval quality run above, commit ${quality!.commit}): ` +
        `${scifact.ndcg10.toFixed(3)}. The conversation steps apply only to memories stored as conversation turns.`,
      "",
    );
  return lines;
}

/** The recall targets and where each run stands against them (every kept latency run, in order). */
function recallTargets(
  runs: (LatencyResult & { run?: number; date: string; commit: string })[],
  quality?: { commit: string; rows: { dataset: string; mode: string; ndcg10: number }[] },
): string[] {
  const alone = quality?.rows.find((row) => row.dataset === "scifact" && row.mode === "hybrid");
  const mark = (met: boolean) => (met ? "met" : "**not met**");
  const name = (l: (typeof runs)[number]) => `${l.memories} memories, run ${l.run ?? 1} (${l.commit}, ${l.date})`;
  const rows: string[] = [];
  for (const l of runs) {
    const short = l.shortSmall;
    if (short)
      rows.push(
        `| short question (< 8 words), namespace of ${short.memories}: p50 ≤ 15 ms, p95 ≤ 25 ms | ${name(l)} | ` +
          `p50 ${short.p50.toFixed(1)} ms, p95 ${short.p95.toFixed(1)} ms | ` +
          `${mark(short.p50 <= 15 && short.p95 <= 25)} |`,
      );
    const single = l.recall.find((r) => r.concurrency === 1);
    if (l.memories >= 100_000 && single)
      rows.push(
        `| ${l.memories.toLocaleString("en")} memories, one client: p95 ≤ 50 ms | ${name(l)} | ` +
          `p95 ${single.p95.toFixed(1)} ms | ${mark(single.p95 <= 50)} |`,
      );
    if (l.scifactBeside && alone)
      rows.push(
        `| quality unchanged beside ${l.memories.toLocaleString("en")} memories: SciFact nDCG@10 (hybrid) | ` +
          `${name(l)} | ${l.scifactBeside.ndcg10.toFixed(3)} beside them, ${alone.ndcg10.toFixed(3)} alone ` +
          `(commit ${quality!.commit}) | ${mark(l.scifactBeside.ndcg10 >= alone.ndcg10 - QUALITY_TOLERANCE)} |`,
      );
    const eight = l.recall.find((r) => r.concurrency === 8);
    if (l.memories === 10_000 && eight)
      rows.push(
        `| 8 clients at 10,000 memories: ≥ 90 req/s, p95 ≤ 150 ms | ${name(l)} | ` +
          `${eight.perSecond.toFixed(1)} req/s, p95 ${eight.p95.toFixed(1)} ms | ` +
          `${mark(eight.perSecond >= 90 && eight.p95 <= 150)} |`,
      );
    if (l.recallOverRaw)
      rows.push(
        `| recall at 8 clients ≥ 2.0 × the raw embedder, in alternating rounds (issue 53) | ${name(l)} | ` +
          `${l.recallOverRaw.ratio.toFixed(2)} (${l.recallOverRaw.recallPerSecond.toFixed(1)} req/s ÷ ` +
          `${l.recallOverRaw.raw.perSecond.toFixed(1)} memories/s) | ${mark(l.recallOverRaw.ratio >= 2)} |`,
      );
    if (!l.reusedLoadFrom)
      rows.push(
        `| remember ≥ 80% of the raw embedder's rate | ${name(l)} | ${(l.rememberRatio * 100).toFixed(1)}% | ` +
          `${mark(l.rememberRatio >= 0.8)} |`,
      );
    if (l.memories >= 100_000 && l.serverRssMiB)
      rows.push(
        `| server memory at ${l.memories.toLocaleString("en")} memories < 2 GiB | ${name(l)} | ` +
          `${(l.serverRssMiB / 1024).toFixed(2)} GiB | ${mark(l.serverRssMiB < 2048)} |`,
      );
  }
  if (!runs.some((l) => l.memories >= 100_000))
    rows.push(
      "| 100,000 memories, one client: p95 ≤ 50 ms, quality unchanged; server memory < 2 GiB | — | " +
        "no `BENCH_MEMORIES=100000` run is kept | not measured |",
    );
  return [
    "## Recall targets",
    "",
    "Each kept latency run against the targets (the machine drifts: every run is listed). A run on kept data " +
      "(`BENCH_DATA_DIR`) has no remember figure of its own.",
    "",
    "| target | run | figure | |",
    "|---|---|---|---|",
    ...rows,
    "",
    ...throughputCeiling(runs.filter((l) => l.memories === 10_000)),
  ];
}

/**
 * What bounds the throughput at 8 clients, from the CPU each request cost (processCpuMs in bench/latency.ts):
 * the two cores, and the busiest thread. In runs from before the embedded database had a thread of its own,
 * it ran on the main thread, with Next and the API.
 */
function throughputCeiling(runs: (LatencyResult & { run?: number })[]): string[] {
  const lines = runs.flatMap((l) => {
    const cpu = l.recall.find((r) => r.concurrency === 8)?.cpuMsPerRequest;
    if (!cpu) return [];
    const database = cpu.serverDatabaseThread;
    const total = cpu.serverMainThread + (database ?? 0) + cpu.serverOtherThreads + cpu.client;
    const [busiest, busiestMs] =
      database !== undefined && database > cpu.serverMainThread
        ? ["database thread", database]
        : ["main thread", cpu.serverMainThread];
    const measured = l.recall.find((r) => r.concurrency === 8)!;
    return [
      `| run ${l.run ?? 1} | ${cpu.serverMainThread.toFixed(1)} | ` +
        `${database === undefined ? "(on the main thread)" : database.toFixed(1)} | ` +
        `${cpu.serverOtherThreads.toFixed(1)} | ${cpu.client.toFixed(1)} | ${(2000 / total).toFixed(0)} | ` +
        `${(1000 / busiestMs).toFixed(0)} (${busiest}) | ${measured.perSecond.toFixed(1)} |`,
    ];
  });
  if (!lines.length) return [];
  return [
    "### What bounds 8 clients at 10,000 memories",
    "",
    "CPU per request at concurrency 8 (ms, from /proc) and the ceilings it sets (req/s): the two cores bound the " +
      "throughput at 2000 ms ÷ the CPU of a request, all threads and the client together; a thread, at 1000 ms ÷ " +
      "its share. The embedded database used to run on the main thread with Next and the API, and that thread was " +
      "the ceiling (about 60 req/s); on a thread of its own (lib/db/pglite-thread.ts) it is no longer, and the two " +
      "cores are. With `DATABASE_URL` the statements run in PostgreSQL's processes instead, on the cores it has. " +
      "(Debian ships no pgvector for a PostgreSQL server, so that path is not measured here.)",
    "",
    "| | main thread | database thread | other threads (query embedding, collector) | client | " +
      "two cores' ceiling | busiest thread's ceiling | measured |",
    "|---|---|---|---|---|---|---|---|",
    ...lines,
    "",
  ];
}

/**
 * The resource-isolation section (issue 50's targets): memory per bomb ≤ 1 GiB, no 5xx in the upload storm, the
 * other organization's p95 within 3× its quiet figure during A's transfers, its small document ready within 15 s
 * during A's OCR queue, its deliveries under 3 s while A's endpoints hang.
 */
function isolationReport(
  runs: (IsolationResult & { commit: string; date: string; machine: { cpu?: string; cores: number } })[],
) {
  const met = (ok: boolean) => (ok ? "met" : "**not met**");
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const lines = [
    "## Resource isolation between organizations",
    "",
    "`BENCH_ONLY=isolation npm run bench` (with `BENCH_DATABASE_URL` for PostgreSQL too): production build over HTTP " +
      "on loopback. Organization A uploads document bombs, 20 uploads of 10 MB at once, downloads a 50 MiB original " +
      "10 and 20 times at once, queues 3 scanned PDFs of 12 pages for OCR and points 16, then 32, webhook endpoints " +
      "at a receiver that never answers; organization B meanwhile remembers and recalls one request after another, " +
      "adds a 34-byte Markdown document and receives its own events. A 429 or 503 is retried after its Retry-After, " +
      "as a client would; the statuses are the first answers. Memory is the server's resident set with every " +
      "process it started, sampled every 25 ms, above its figure before the load.",
    "",
    "Before issue 50 (a18ae9b–26e61a5, embedded, production build, a machine loaded by other work, so its latencies " +
      "are inflated and its memory and statuses are not): the PDF of 16 images +2,354 / +2,798 MiB (two runs); the " +
      "DOCX expanding to 1.2 GB +1,751 / +1,883 / +2,246 MiB; the PDF content stream expanding to 1.5 GB +1,788 / " +
      "+1,792 / +1,938 MiB; 20 uploads of 10 MB at once: 14 × 202, **6 × 500**, 75.9 s; B's remember p95 quiet → " +
      "during the uploads 95 ms → 71,262 ms (a later run: a 500); B's recall p95 46 ms → 2,071 ms. The issue's own " +
      "figures: B's remember 52.7 s during the uploads, B's recall up to 41 s during A's downloads, 4.5 GB for 20 " +
      "downloads of one 50 MiB file, B's document 94.7 s behind A's OCR, B's deliveries ~40 s (16 hanging) and " +
      "80 s (32).",
    "",
    "The run before this one (f68be63, quiet machine), before the transfers' bytes stopped going through the " +
      "protocol writer and parser as text (binary parameters; binary results, through COPY on PostgreSQL), the " +
      "spool stopped copying its tail at every chunk, parts were read 1 MiB at a time yielding to other statements, " +
      "and an organization's transfers under way went from 4 to 2: B's p95 during the uploads, embedded, remember " +
      "116 → 525 ms (4.5×), recall 53 → 722 ms (13.7×); during the downloads 772 ms (6.7×) and 488 ms (9.3×). " +
      "PostgreSQL: uploads 86 → 401 ms (4.7×) and 61 → 195 ms (3.2×); downloads 961 ms (11.2×) and 319 ms (5.2×).",
    "",
  ];
  for (const r of runs) {
    const within3x = (during: RecallFigures, quiet: RecallFigures) =>
      `${ms(during.p95)} (${(during.p95 / quiet.p95).toFixed(1)}×: ${met(during.p95 <= 3 * quiet.p95)})`;
    const failed = (errors: Record<string, number>) =>
      Object.keys(errors).length === 0
        ? ""
        : `; failed: ${Object.entries(errors)
            .map(([status, n]) => `${n} × ${status}`)
            .join(", ")}`;
    lines.push(
      `### ${r.database}`,
      "",
      `Commit ${r.commit}, ${r.date}; ${r.machine.cpu}, ${r.machine.cores} cores.`,
      "",
      "| measure | figure | target |",
      "|---|---|---|",
    );
    for (const b of r.bombs)
      lines.push(
        `| ${b.name} (${(b.fileBytes / 1024).toFixed(0)} KB) | ${b.status}${b.error ? `: "${b.error}"` : ""}; ` +
          `memory +${b.peakGrowthMiB.toFixed(0)} MiB | ≤ 1,024 MiB: ${met(b.peakGrowthMiB <= 1024)} |`,
      );
    lines.push(
      `| ${r.uploads.requests} uploads of ${r.uploads.sizeMiB} MB at once | first answers ` +
        `${Object.entries(r.uploads.statuses)
          .map(([status, n]) => `${n} × ${status}`)
          .join(", ")}; ` +
        `${r.uploads.seconds.toFixed(1)} s in all | ` +
        `no 5xx: ${met(r.uploads.serverErrors === 0 && !r.uploads.statuses["503"])} |`,
      `| B's remember p95, quiet / during the uploads | ${ms(r.quiet.remember.p95)} / ` +
        `${within3x(r.uploads.other.remember, r.quiet.remember)}${failed(r.uploads.other.errors)} | ≤ 3× |`,
      `| B's recall p95, quiet / during the uploads | ${ms(r.quiet.recall.p95)} / ` +
        `${within3x(r.uploads.other.recall, r.quiet.recall)} | ≤ 3× |`,
      `| ${r.downloads.requests} downloads of a ${r.downloads.sizeMiB} MiB original at once | first answers ` +
        `${Object.entries(r.downloads.statuses)
          .map(([status, n]) => `${n} × ${status}`)
          .join(", ")}; ` +
        `${r.downloads.identical} byte-identical; ${r.downloads.seconds.toFixed(1)} s | |`,
      `| B's remember p95 during the downloads | ${within3x(r.downloads.other.remember, r.quiet.remember)}` +
        `${failed(r.downloads.other.errors)} | ≤ 3× |`,
      `| B's recall p95 during the downloads | ${within3x(r.downloads.other.recall, r.quiet.recall)} | ≤ 3× |`,
      `| ${r.sameFileDownloads.requests} downloads of one ${r.sameFileDownloads.sizeMiB} MiB file at once | memory ` +
        `+${r.sameFileDownloads.peakGrowthMiB.toFixed(0)} MiB | bounded |`,
      `| B's small document ready, during ${r.smallDocument.otherQueued} of A | ` +
        `${r.smallDocument.readySeconds.toFixed(1)} s | ` +
        `≤ 15 s: ${met(r.smallDocument.readySeconds <= 15)} |`,
    );
    for (const w of r.webhooks)
      lines.push(
        `| B's deliveries while ${w.hanging} of A's endpoints hang | ${w.delivered}/${w.of}; p50 ` +
          `${(w.p50 / 1000).toFixed(2)} s, p95 ${(w.p95 / 1000).toFixed(2)} s, max ${(w.max / 1000).toFixed(2)} s | ` +
          `< 3 s: ${met(w.delivered === w.of && w.max < 3000)} |`,
      );
    lines.push("");
  }
  return lines;
}
