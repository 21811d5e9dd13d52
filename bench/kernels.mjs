// `node bench/kernels.mjs`: the local embedder's matrix-product kernels side by side on this machine.
// For each kernel the CPU runs: GFLOP/s on a [30×512]·[512×1536] product (packed weights, the model's
// widest layer for a 30-token text); the same product on fp16 weights and on bf16 pairs against floats, by rows;
// then, with LOCAL_EMBEDDING_KERNELS set to each kernel (the forward pass written out, on the addon) and to wasm
// (the model's graph on TensorFlow.js's WASM kernels): embedding p50 (wall and CPU time) of a query (its products
// on bf16 pairs or fp16 weights, as recall runs them, and as floats) and of a batch of 32 passages, and how far a
// query's products move its vector from the floats' (1 − cosine, over SciFact's test queries where
// BENCH_DATASETS_DIR, or bench/.cache/datasets, has them). BENCH_QUERIES (default 200): queries per setting.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";

const root = path.resolve(import.meta.dirname, "..");
const addon = createRequire(import.meta.url)("memgw-native-matmul");
const queryCount = Number(process.env.BENCH_QUERIES || 200);
console.log(`${os.cpus()[0]?.model.trim()}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`);
console.log(`kernels built in: ${addon.instructionSets.join(", ")}`);
console.log(`this CPU runs: ${addon.runnableInstructionSets.join(", ")}`);

// Time on this thread's CPU, not wall time: the figure then holds on a machine shared with other work.
function cpuSeconds(run, repeats) {
  const start = process.cpuUsage();
  for (let i = 0; i < repeats; i++) run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6 / repeats;
}

const [m, k, n] = [30, 512, 1536];

/** The median of `runs` timings of `repeats` calls each, after one warming timing. */
function medianCpuSeconds(run, runs, repeats) {
  cpuSeconds(run, repeats);
  return Array.from({ length: runs }, () => cpuSeconds(run, repeats)).sort((a, b) => a - b)[Math.floor(runs / 2)];
}

/** One buffer holding a [rows×k] left matrix, the [k×n] weights after it, then the [rows×n] output. */
function productSpace(rows) {
  const space = new ArrayBuffer(4 * (rows * k + k * n + rows * n));
  const values = new Float32Array(space);
  for (let i = 0; i < values.length; i++) values[i] = Math.sin(i) / 2;
  return space;
}

const memory = productSpace(m);
console.log(`\n[${m}×${k}]·[${k}×${n}] product, median of 7 runs of 300:`);
for (const name of addon.runnableInstructionSets) {
  const kernel = addon.kernel(name);
  const packed = kernel.pack(memory, 4 * m * k, k, n, false);
  const multiply = () => kernel.matMulPacked(memory, 0, 1, m, k, 4 * (m * k + k * n), n, false, packed);
  const seconds = medianCpuSeconds(multiply, 7, 300);
  console.log(`  ${name.padEnd(8)} ${((2 * m * k * n) / seconds / 1e9).toFixed(1).padStart(6)} GFLOP/s`);
}

// Where fp16 weights stop paying (FP16_MAX_ROWS in lib/memory/embeddings/use-lite-forward.mjs), and what bf16 pairs
// save at every size: the widest product again, with as many rows as a call has tokens, on the floats, then on fp16
// weights and on bf16 pairs where the kernel has them.
console.log(
  `\n[m×${k}]·[${k}×${n}] product, fp16 weights (and bf16 pairs) against floats, by rows m (CPU time, median of 5):`,
);
for (const rows of [1, 4, 8, 16, 32, 48, 64, 128]) {
  const space = productSpace(rows);
  const figures = [];
  for (const name of addon.runnableInstructionSets) {
    const kernel = addon.kernel(name);
    if (!kernel.matMulPackedFp16) continue;
    const output = 4 * (rows * k + k * n);
    const timed = (product, pack) => {
      const packed = pack.call(kernel, space, 4 * rows * k, k, n, false);
      const repeats = Math.max(20, Math.round(3000 / rows));
      return medianCpuSeconds(() => product.call(kernel, space, 0, 1, rows, k, output, n, false, packed), 5, repeats);
    };
    const floats = timed(kernel.matMulPacked, kernel.pack);
    const against = (seconds) => `${(seconds * 1e6).toFixed(0)} µs (${((seconds / floats - 1) * 100).toFixed(0)}%)`;
    const halves = timed(kernel.matMulPackedFp16, kernel.packFp16);
    const pairs = kernel.matMulPackedBf16 ? timed(kernel.matMulPackedBf16, kernel.packBf16) : undefined;
    figures.push(
      `${name} ${(floats * 1e6).toFixed(0)} → ${against(halves)}` +
        (pairs === undefined ? "" : `, bf16 ${against(pairs)}`),
    );
  }
  if (figures.length) console.log(`  m = ${String(rows).padStart(3)}   ${figures.join("   ")}`);
}

const queries = [
  "What does Dana prefer for meetings?",
  "when was the Berlin invoice paid",
  "Who rotated the keys of region 3 and when did they do it?",
  "favourite restaurant",
  "What did the customer say about the delayed shipment to the Lisbon warehouse last week?",
  "allergies",
  "Which projects is Priya working on this quarter, and who reviews her pull requests?",
  "How do I reset my password?",
];

const passage = (i) =>
  Array.from({ length: 9 }, (_, j) => `Note ${i}.${j}: the team in region ${(i + j) % 7} moved the review.`).join(" ");
const passages = Array.from({ length: 32 }, (_, i) => passage(i));

/** The queries a vector's movement is measured on: SciFact's test claims where the datasets are, else the above. */
const sciFactQueries = path.resolve(
  root,
  process.env.BENCH_DATASETS_DIR || "bench/.cache/datasets",
  "scifact/queries.test.jsonl",
);
const driftQueries = fs.existsSync(sciFactQueries)
  ? {
      texts: fs
        .readFileSync(sciFactQueries, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).text),
      of: "SciFact's test queries",
    }
  : { texts: queries, of: "the queries above" };

/**
 * Embeds the queries one at a time, as recalls do, then batches of 32 passages of about 100 words, as
 * ingestion does, on a worker started with this kernel setting.
 */
async function latencies(setting) {
  const worker = new Worker(path.join(root, "lib/memory/embeddings/local-worker.mjs"), {
    env: { ...process.env, LOCAL_EMBEDDING_KERNELS: setting },
  });
  const ready = await new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.on("message", (message) => message.ready && resolve(message));
  });
  // A query's products run in lower precision, as the server's recalls ask (`query`); ingestion's on floats.
  const embed = (id, texts, query = false) =>
    new Promise((resolve) => {
      const onMessage = (message) => {
        if (message.id !== id) return;
        worker.off("message", onMessage);
        resolve(message.vectors);
      };
      worker.on("message", onMessage);
      worker.postMessage({ id, texts: Array.isArray(texts) ? texts : [texts], query });
    });
  // The process's CPU time is the worker's: this thread only waits meanwhile.
  const measure = async (count, texts, query = false) => {
    const wall = [];
    const cpu = [];
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      await embed(100000 + i, texts(i), query);
      const used = process.cpuUsage(cpuStart);
      cpu.push((used.user + used.system) / 1000);
      wall.push(performance.now() - start);
    }
    const p50 = (times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
    return { wall: p50(wall), cpu: p50(cpu) };
  };
  for (let i = 0; i < 20; i++) await embed(i, queries[i % queries.length], true);
  const query = await measure(queryCount, (i) => queries[i % queries.length], true);
  const queryFloats = await measure(queryCount, (i) => queries[i % queries.length]);
  await embed(-1, passages);
  const batch = await measure(10, () => passages);
  // How far a query's products move its vector from the floats' products: 1 − cosine of the two. WASM runs a
  // query on the floats: nothing to measure.
  const moved = [];
  for (const [i, text] of setting === "wasm" ? [] : driftQueries.texts.entries()) {
    const [reduced, floats] = [await embed(200000 + 2 * i, text, true), await embed(200001 + 2 * i, text)];
    moved.push(1 - reduced.reduce((sum, value, j) => sum + value * floats[j], 0));
  }
  await worker.terminate();
  return { kernels: ready.kernels, query, queryFloats, batch, moved };
}

console.log(`\nEmbedding, p50 of wall and CPU time: ${queryCount} queries one at a time; 10 batches of 32 passages:`);
const ms = (value) => `${value.toFixed(1).padStart(6)} ms`;
for (const setting of [...addon.runnableInstructionSets, "wasm"]) {
  const { kernels, query, queryFloats, batch, moved } = await latencies(setting);
  const queryFigures =
    `query: wall ${ms(query.wall)}, CPU ${ms(query.cpu)}` +
    (setting === "wasm" ? "" : ` (weights as floats: CPU ${ms(queryFloats.cpu)})`);
  console.log(`  ${kernels.padEnd(16)} ${queryFigures}   batch: wall ${ms(batch.wall)}, CPU ${ms(batch.cpu)}`);
  if (moved.length === 0) continue;
  const mean = moved.reduce((sum, value) => sum + value, 0) / moved.length;
  console.log(
    `  ${"".padEnd(16)} a query's vector against the floats': 1 − cosine ${mean.toExponential(1)} on average, ` +
      `${Math.max(...moved).toExponential(1)} at most (${moved.length} of ${driftQueries.of})`,
  );
}
