// Reading a document in a worker thread: a file crafted to be slow (quadratic parsing, a decompression bomb)
// or large takes that thread's time and memory, never the server's. The thread is stopped at the time limit
// whatever its libraries are doing, and dies alone when it passes its memory limit.
import path from "node:path";
import { projectRoot } from "@/lib/config";
import { DocumentUnreadableError, type ExtractedDocument, type ExtractionLimits } from "./types";

// Taken at run time, out of the bundler's sight: Next's bundler would rewrite `new Worker(...)` into a chunk
// of its own, while the worker must be the script beside this file.
const { Worker } = process.getBuiltinModule("node:worker_threads") as typeof import("node:worker_threads");

/** The heap one extraction may use: a PDF of thousands of pages or a large DOCX fits; a bomb does not. */
const HEAP_LIMIT_MB = 1024;

type WorkerAnswer = { document: ExtractedDocument } | { error: { name: string; message: string } };

/** extractDocument (./index.ts) in a thread of its own, with its time limit enforced by stopping the thread. */
export function extractInWorker(
  bytes: Uint8Array,
  contentType: string,
  limits: ExtractionLimits,
  options: { baseUrl?: string } = {},
): Promise<ExtractedDocument> {
  const seconds = Math.round(limits.timeoutMs / 100) / 10;
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(projectRoot(), "lib/documents/extract/worker.mjs"), {
      workerData: { bytes, contentType, limits, options },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    // A little after the extraction's own limit, which answers with its own message when the thread is free.
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(new DocumentUnreadableError(`Reading the document took longer than ${seconds} s, so it was stopped.`)),
        ),
      limits.timeoutMs + 5_000,
    );
    worker.on("message", (answer: WorkerAnswer) =>
      settle(() => {
        if ("document" in answer) return resolve(answer.document);
        const { name, message } = answer.error;
        reject(name === "DocumentUnreadableError" ? new DocumentUnreadableError(message) : new Error(message));
      }),
    );
    worker.on("error", (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new DocumentUnreadableError(`Reading the document needed more than ${HEAP_LIMIT_MB} MB of memory.`)
            : error,
        ),
      ),
    );
    worker.on("exit", (code) =>
      settle(() => reject(new Error(`the document's reading thread stopped (exit code ${code}) without an answer`))),
    );
  });
}
