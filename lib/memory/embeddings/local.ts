import path from "node:path";
import type { Worker as WorkerThread } from "node:worker_threads";
import { UnavailableError } from "@/lib/errors";
import { projectRoot, setting } from "@/lib/config";

// Taken at run time, out of the bundler's sight: Next's bundler rewrites `new Worker(...)` into a chunk
// of its own, while the worker must be the plain script beside this file in every runtime (Next, tsx, vitest).
const { Worker } = process.getBuiltinModule("node:worker_threads") as typeof import("node:worker_threads");
import { FairQueue } from "./fair-queue";
import { normalize, type EmbeddingPriority, type EmbeddingProvider, type EmbeddingRequester } from "./provider";

const MAX_TEXTS_PER_CALL = 32;
/**
 * Jobs an ingestion worker holds: the one it runs and the next, so that it goes on at once even while this
 * thread is busy (32 chunks take it about 1 s, longer than any one statement of a remember). Every job held
 * is one that another organization's remember, arriving now, waits behind.
 */
const INGEST_JOBS_AHEAD = 2;
/**
 * The largest ingestion job the worker kept for queries takes, when it has no query to run: a single short
 * memory then never waits behind another organization's batch on the ingestion worker, and a query that
 * arrives meanwhile waits at most this many texts (about a tenth of a second).
 */
const SMALL_INGEST_TEXTS = 4;

interface Job {
  id: number;
  texts: string[];
  priority: EmbeddingPriority;
  resolve(vectors: number[][]): void;
  reject(error: Error): void;
}

interface PoolWorker {
  worker: WorkerThread;
  ready: Promise<void>;
  /** Jobs handed to the worker, in the order it runs them. */
  inFlight: Job[];
  /** How many jobs it may hold: a worker for ingestion holds the next one too (see the constructor). */
  capacity: number;
  /** Kept free for queries, so that a recall never waits behind a large ingestion. */
  queriesOnly: boolean;
}

/**
 * The default, offline provider: Universal Sentence Encoder lite (512-d, weights shipped in the npm
 * package) on a pool of worker threads. With two or more workers, one is kept for queries (and small
 * ingestion jobs when it has no query); queued queries always go before queued ingestion, and queued
 * ingestion is taken in turn between the organizations, then the keys, that it is for.
 */
export class LocalEmbeddingProvider implements EmbeddingProvider {
  readonly model = "use-lite-512";
  readonly dimensions = 512;
  private readonly workers: PoolWorker[];
  /** Queued queries, first come first served: they go before any ingestion. */
  private readonly queries: Job[] = [];
  /** Queued ingestion, shared fairly between organizations and then keys (see FairQueue). */
  private readonly ingestion = new FairQueue<Job>();
  private nextId = 1;
  private closed = false;
  private allReady = false;
  /** What runs the model's matrix products: `native avx512` (the addon in native/matmul) or `wasm`. */
  kernels: string | undefined;
  /** Why the model could not be loaded: every embedding is then refused at once instead of waiting forever. */
  private loadFailure: Error | undefined;

  constructor(workerCount = setting("EMBEDDING_WORKERS")) {
    const script = path.join(projectRoot(), "lib/memory/embeddings/local-worker.mjs");
    const reserveForQueries = workerCount > 1;
    this.workers = Array.from({ length: Math.max(1, workerCount) }, (_, i) => {
      const queriesOnly = reserveForQueries && i === 0;
      const worker = new Worker(script, { workerData: { background: reserveForQueries && !queriesOnly } });
      worker.unref();
      const entry: PoolWorker = {
        worker,
        inFlight: [],
        // An ingestion worker already holds its next jobs when it finishes one, so it goes on at once
        // even while this thread is busy. Without a worker kept for queries, a query would wait behind
        // them all: one at a time then.
        capacity: queriesOnly || !reserveForQueries ? 1 : INGEST_JOBS_AHEAD,
        queriesOnly,
        ready: new Promise((resolve, reject) => {
          worker.once("error", reject);
          const onReady = (message: { ready?: boolean; kernels?: string }) => {
            if (!message.ready) return;
            worker.off("message", onReady);
            this.kernels = message.kernels;
            resolve();
          };
          worker.on("message", onReady);
        }),
      };
      // A job's vectors arrive as one Float32Array, one after another.
      worker.on("message", (message: { id?: number; vectors?: Float32Array; error?: string }) => {
        const index = entry.inFlight.findIndex((job) => job.id === message.id);
        if (index === -1) return;
        const [job] = entry.inFlight.splice(index, 1);
        if (message.error) job.reject(new Error(`Local embedding failed: ${message.error}`));
        else
          job.resolve(
            job.texts.map((_, i) =>
              normalize(message.vectors!.subarray(i * this.dimensions, (i + 1) * this.dimensions)),
            ),
          );
        this.dispatch();
      });
      worker.on("error", (error) => {
        for (const job of entry.inFlight.splice(0)) job.reject(error);
      });
      return entry;
    });
  }

  /** Resolves once every worker has loaded the model (start-up warm-up). */
  async ready(): Promise<void> {
    try {
      await Promise.all(this.workers.map((w) => w.ready));
      this.allReady = true;
    } catch (error) {
      this.loadFailure ??= new UnavailableError(
        `The local embedding model could not be loaded: ${(error as Error).message}`,
      );
      for (const job of this.takeQueued()) job.reject(this.loadFailure);
      throw this.loadFailure;
    }
  }

  async embed(texts: string[], priority: EmbeddingPriority, requester?: EmbeddingRequester): Promise<number[][]> {
    if (this.closed) throw new Error("The embedding provider is closed.");
    if (this.loadFailure) throw this.loadFailure;
    if (texts.length === 0) return [];
    // Similar lengths in one call waste less work on padding.
    const order = texts.map((text, index) => ({ text, index })).sort((a, b) => a.text.length - b.text.length);
    const out: number[][] = new Array(texts.length);
    const calls: Promise<void>[] = [];
    for (let start = 0; start < order.length; start += MAX_TEXTS_PER_CALL) {
      const slice = order.slice(start, start + MAX_TEXTS_PER_CALL);
      calls.push(
        this.run(
          slice.map((s) => s.text),
          priority,
          requester,
        ).then((vectors) => {
          slice.forEach((s, i) => (out[s.index] = vectors[i]));
        }),
      );
    }
    await Promise.all(calls);
    return out;
  }

  private run(texts: string[], priority: EmbeddingPriority, requester?: EmbeddingRequester): Promise<number[][]> {
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, texts, priority, resolve, reject };
      if (priority === "query") this.queries.push(job);
      else this.ingestion.push(requester, job);
      // Hand the job over now, not on a later tick: the caller goes on to run SQL meanwhile, and the
      // worker should be embedding during it.
      if (this.allReady) this.dispatch();
      else
        this.ready().then(
          () => this.dispatch(),
          () => undefined,
        ); // a failed load has rejected the queue
    });
  }

  private dispatch() {
    // Queries queue for the worker kept for them while it embeds others, and then go together (see
    // queuedQueries): spread over both workers they went in smaller batches, which cost the two cores more
    // per question (8 clients: 92 recalls/s against 82). Behind an ingestion job there, they take an idle one.
    const queryWorker = this.workers.find((entry) => entry.queriesOnly);
    const queryWorkerEmbedsQueries = queryWorker?.inFlight.some((job) => job.priority === "query") ?? false;
    for (const entry of this.workers) {
      while (entry.inFlight.length < entry.capacity) {
        // A query goes only to an idle worker: behind a job already there it would wait for no reason.
        const takesQueries = entry.inFlight.length === 0 && (entry.queriesOnly || !queryWorkerEmbedsQueries);
        const query = takesQueries ? this.queuedQueries() : undefined;
        const fits = entry.queriesOnly ? (next: Job) => next.texts.length <= SMALL_INGEST_TEXTS : undefined;
        const job = query ?? this.ingestion.shift(fits);
        if (!job) break;
        entry.inFlight.push(job);
        // A question's vector is compared, never stored: its products may run in lower precision (bf16 pairs, or
        // fp16 weights for a call of few tokens: createForwardPass in use-lite-forward.mjs).
        entry.worker.postMessage({ id: job.id, texts: job.texts, query: job.priority === "query" });
      }
    }
  }

  /**
   * The queries waiting, as one job of up to MAX_TEXTS_PER_CALL texts: under concurrent recalls they queue,
   * and the model embeds four questions together in about half the time per question (3.5 → 1.8 ms).
   */
  private queuedQueries(): Job | undefined {
    const batch: Job[] = [];
    let texts = 0;
    while (this.queries.length && texts + this.queries[0].texts.length <= MAX_TEXTS_PER_CALL) {
      const job = this.queries.shift()!;
      batch.push(job);
      texts += job.texts.length;
    }
    if (batch.length <= 1) return batch[0];
    return {
      id: this.nextId++,
      texts: batch.flatMap((job) => job.texts),
      priority: "query",
      resolve: (vectors) => {
        let start = 0;
        for (const job of batch) job.resolve(vectors.slice(start, (start += job.texts.length)));
      },
      reject: (error) => batch.forEach((job) => job.reject(error)),
    };
  }

  private takeQueued(): Job[] {
    return [...this.queries.splice(0), ...this.ingestion.drain()];
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.takeQueued()) job.reject(new Error("The embedding provider was closed."));
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}
