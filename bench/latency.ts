// Latency and throughput over HTTP against the production build (`npm start`): remember in batches
// while loading N memories, then POST /recall at concurrency 1 and 8, with distinct queries.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LocalEmbeddingProvider } from "@/lib/memory/embeddings/local";
import { freePort, startServer } from "../tests/helpers/server";
import { loadDataset, ndcgAt, recallAt } from "./lib/beir";
import { BENCH_CLIENT, dataOf, embeddingsReady, sendJson } from "./lib/api-client";
import { percentile } from "./lib/percentile";

export interface LatencyResult {
  memories: number;
  chunksPerMemory: number;
  /** The mean of the two measurements around the load. */
  rawEmbedderPerSecond: number;
  rawEmbedderBeforeAfter?: [number, number];
  rememberPerSecond: number;
  rememberRatio: number;
  rememberBatch: number;
  /**
   * With BENCH_IDENTITIES=k, memory i is identity `person-${i % k}`'s: each write then also settles its validity
   * (lib/memory/validity: a slot lock and a look at the identity's most alike statements). Absent: no identities.
   */
  identities?: number;
  /** When the data was kept from an earlier run (BENCH_DATA_DIR): when that run loaded it. */
  reusedLoadFrom?: string;
  /** The unmeasured recalls before the measured ones (WARM_UP_QUERIES); absent in results of before 2026-12-01: 300. */
  warmUpQueries?: number;
  /** How the client sent its requests (BENCH_CLIENT); absent in results of before 2026-12-03: fetch. */
  client?: string;
  recall: RecallLatency[];
  /** Recall at 8 clients set against the raw embedder in alternating rounds: see RecallOverRaw. */
  recallOverRaw?: RecallOverRaw;
  /** Scoped recall: see ScopedRecallLatency. */
  scopedRecall?: ScopedRecallLatency;
  /** The server's resident memory after the recalls (the process and any child process), MiB. */
  serverRssMiB?: number;
  /** Where the time of a recall at concurrency 1 goes, for long questions on the loaded namespace. */
  longStages?: StageBreakdown;
  /** The SciFact queries on a namespace of SciFact's documents beside the loaded memories (the large run). */
  scifactBeside?: BesideQuality;
  /** Short questions (under 8 words) on a namespace of SMALL_NAMESPACE memories, at concurrency 1. */
  shortSmall?: RecallLatency & {
    memories: number;
    stages: StageBreakdown;
    /** The same questions asked again: their embeddings come from the server's cache. */
    repeated: RecallLatency & { stages: StageBreakdown };
  };
}

/**
 * Mean milliseconds per stage of a recall, from the server's `Server-Timing` header (MEMGW_SERVER_TIMING=1):
 * stages in the order they start; `embed` runs on a worker thread beside `namespace` and `lexical`, and
 * `embed-wait` is what the request waited for it after those. `http` is the client's time less the
 * server's `total`: HTTP on loopback, Next's routing, and the client.
 */
export type StageBreakdown = Record<string, number>;

/**
 * Retrieval quality over HTTP (hybrid, top_k 100) of SciFact in a namespace of its own, in the database of
 * the large run: compared with the same figure measured alone (`BENCH_ONLY=quality`), it shows what
 * holding 100,000 other memories changes in a namespace's results.
 */
export interface BesideQuality extends RecallLatency {
  docs: number;
  queries: number;
  ndcg10: number;
  recall100: number;
}

/**
 * Recall at 8 clients against the raw embedder, measured in alternating rounds: this machine's speed swings by a
 * fifth within a minute (one server answered 116 and 179 req/s in rounds a minute apart), so rates taken minutes
 * apart (the raw embedder around the load, recall after it) set one moment's speed against another's. Each round
 * embeds RECALL_OVER_RAW_TEXTS texts with the raw embedder, asks every query at 8 clients (newly marked), and embeds
 * as many texts again. Rates are over all rounds (requests or texts ÷ seconds).
 */
export interface RecallOverRaw {
  rounds: number;
  /** Recall at 8 clients over all rounds, req/s. */
  recallPerSecond: number;
  /**
   * The raw embedder as the server runs it, memories/s over all rounds; `kernels`: what runs its products
   * (`native avx512`, `wasm`, …).
   */
  raw: { kernels: string; perSecond: number };
  /** recallPerSecond ÷ raw.perSecond. */
  ratio: number;
  /** Each round's recall (req/s) and raw embedder (memories/s, both of its turns). */
  perRound: { recallPerSecond: number; rawPerSecond: number }[];
}

/** Rounds of RecallOverRaw, and the texts the raw embedder embeds before and after each round's recalls. */
const RECALL_OVER_RAW_ROUNDS = 6;
const RECALL_OVER_RAW_TEXTS = 100;

/** From this size on, a latency run also measures SciFact's quality beside the loaded memories. */
export const QUALITY_BESIDE_FROM = 100_000;

/** The small namespace's size: what the short-query target is set for. */
export const SMALL_NAMESPACE = 1_000;

/**
 * Recall at concurrency 1, the three kinds of request interleaved query by query (so that they share the
 * machine's drift): by the unscoped key; by the unscoped key filtering on one team (`scopes` in the request,
 * namespace-wide BM25 statistics); by a key scoped to that team (statistics over that team's memories).
 */
export interface ScopedRecallLatency {
  unscoped: RecallLatency;
  requestFiltered: RecallLatency;
  keyScoped: RecallLatency;
}

export interface RecallLatency {
  concurrency: number;
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  perSecond: number;
  /**
   * What the requests cost the machine's two cores: the server's main thread (Next and the API), the embedded
   * database's thread (absent in runs from before it had one: it ran on the main thread), the server's other
   * threads (query embedding on workers, libuv, the garbage collector), the client.
   */
  cpuMsPerRequest?: {
    serverMainThread: number;
    serverDatabaseThread?: number;
    serverOtherThreads: number;
    client: number;
  };
}

/** The memories are spread over these values of the scope `team`; the scoped key sees the first. */
export const SCOPE_VALUES = ["alpha", "beta", "gamma", "delta"];

/**
 * Recall requests sent before measuring, with queries other than the measured ones, WARM_UP_CLIENTS at a time.
 * The server's code is compiled as it runs: over its first 500 recalls its V8 helper threads spent 8 ms of CPU
 * per recall compiling, over recalls 1,000 to 1,500 1.4 ms, and after 2,000 about 0.5 ms, where they stay; its
 * main thread went from 9.1 to 6.8 ms. With 300, the first round at 8 clients measured code still compiling.
 */
const WARM_UP_QUERIES = 1_500;
const WARM_UP_CLIENTS = 8;
/** Then, of each scoped kind of request (measureScoped), this many, on a server already warm. */
const SCOPED_WARM_UP_QUERIES = 100;

/**
 * Warms a server up: WARM_UP_QUERIES recalls (the opening eight words of memories spread over `texts`), sent
 * WARM_UP_CLIENTS at a time through `recall`.
 */
export async function warmUp(texts: string[], recall: (query: string) => Promise<unknown>): Promise<void> {
  const stride = Math.max(1, Math.floor(texts.length / WARM_UP_QUERIES));
  const queries = texts
    .filter((_, i) => i % stride === 0)
    .slice(0, WARM_UP_QUERIES)
    .map((text) => text.split(/\s+/).slice(0, 8).join(" "));
  let next = 0;
  await Promise.all(
    Array.from({ length: WARM_UP_CLIENTS }, async () => {
      while (next < queries.length) await recall(queries[next++]);
    }),
  );
}

/** `auth;dur=1.52, lexical;dur=2.01` as `{auth: 1.52, lexical: 2.01}`. */
function stagesOf(header: string | string[] | undefined): Record<string, number> {
  const stages: Record<string, number> = {};
  for (const part of [header ?? []].flat().join(",").split(",")) {
    const [name, ...params] = part.trim().split(";");
    const duration = params.find((param) => param.trim().startsWith("dur="));
    if (name && duration) stages[name] = Number(duration.trim().slice(4));
  }
  return stages;
}

/** The mean of each stage over the requests (0 where a request did not go through it), and `http`. */
function meanStages(samples: { ms: number; stages: Record<string, number> }[]): StageBreakdown {
  const names = [...new Set(samples.flatMap((sample) => Object.keys(sample.stages)))];
  const mean = (value: (sample: (typeof samples)[number]) => number) =>
    samples.reduce((sum, sample) => sum + value(sample), 0) / Math.max(1, samples.length);
  const breakdown: StageBreakdown = Object.fromEntries(names.map((name) => [name, mean((s) => s.stages[name] ?? 0)]));
  breakdown.http = mean((s) => s.ms - (s.stages.total ?? 0));
  return breakdown;
}

export function describeStages(stages: StageBreakdown): string {
  return Object.entries(stages)
    .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
    .join(", ");
}

/**
 * CPU time of a process, in ms, from /proc: its main thread (Next and the API), the embedded database's
 * thread (as the server's start-up line names it), and its other threads (embedding workers, libuv, V8's
 * collector).
 */
export function processCpuMs(pid: number, databaseThread?: number): { main: number; database: number; other: number } {
  const ticksPerMs = 100 / 1000; // USER_HZ is 100 on Linux
  const cpu = { main: 0, database: 0, other: 0 };
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch {
      continue; // the thread ended
    }
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ms = (Number(fields[11]) + Number(fields[12])) / ticksPerMs;
    if (tid === String(pid)) cpu.main += ms;
    else if (tid === String(databaseThread)) cpu.database += ms;
    else cpu.other += ms;
  }
  return cpu;
}

/** Resident memory of a process and its children, MiB (`ps`; the embedding workers are threads of the process). */
export function residentMiB(pid: number): number {
  const output = execFileSync("ps", ["-o", "rss=", "--pid", String(pid), "--ppid", String(pid)], { encoding: "utf8" });
  return output.split("\n").reduce((sum, line) => sum + (Number(line.trim()) || 0), 0) / 1024;
}

/**
 * What the latency runs load and ask: `memories` texts (MS MARCO then SciFact passages, repeated with a
 * marker past the corpus size, as the 100k option needs, so every memory is distinct) and every query of both.
 */
export function latencyWorkload(datasetsDir: string, memories: number) {
  const scifact = loadDataset(datasetsDir, "scifact");
  const msmarco = loadDataset(datasetsDir, "msmarco-trecdl-subset");
  const corpus = [...msmarco.docs, ...scifact.docs].map((d) => (d.title ? `${d.title}\n${d.text}` : d.text));
  const texts = Array.from({ length: memories }, (_, i) =>
    i < corpus.length ? corpus[i] : `${corpus[i % corpus.length]} (variant ${Math.floor(i / corpus.length)})`,
  );
  const queries = [...scifact.queries, ...msmarco.queries].map((q) => q.text);
  return { scifact, msmarco, texts, queries };
}

/** The texts the raw embedder is measured on: about 600 of the workload's, spread over it. */
const rawEmbedderSample = (texts: string[]) => texts.filter((_, i) => i % Math.ceil(texts.length / 600) === 0);

/**
 * The raw embedder, configured as the server's ingestion runs it (one worker is kept for queries), loaded and
 * warmed once: `time(count)` embeds the next `count` texts of the sample (from its start, round and round) in
 * batches of 100 and answers the seconds it took.
 */
export async function openRawEmbedder(texts: string[]) {
  const sample = rawEmbedderSample(texts);
  const provider = new LocalEmbeddingProvider();
  try {
    await provider.ready();
    await provider.embed(sample.slice(0, 32), "ingest");
  } catch (error) {
    await provider.close();
    throw error;
  }
  let next = 0;
  return {
    sampleSize: sample.length,
    /** What runs its products (`native avx512`, `wasm`, …). */
    kernels: provider.kernels,
    async time(count: number): Promise<number> {
      const started = performance.now();
      for (let done = 0; done < count;) {
        const batch = Array.from({ length: Math.min(100, count - done) }, () => sample[next++ % sample.length]);
        await provider.embed(batch, "ingest");
        done += batch.length;
      }
      return (performance.now() - started) / 1000;
    },
    close: () => provider.close(),
  };
}

/**
 * The raw embedder's memories/s on ~600 of `texts`, configured as the server's ingestion runs it (one worker is kept
 * for queries), logged with `when` it was measured: the rate the load figures are set against.
 */
export async function rawEmbedderRate(texts: string[], log: (line: string) => void, when?: string): Promise<number> {
  const raw = await openRawEmbedder(texts);
  try {
    const perSecond = raw.sampleSize / (await raw.time(raw.sampleSize));
    const measured = `${perSecond.toFixed(1)} memories/s over ${raw.sampleSize} sampled texts`;
    log(`  raw embedder${when ? ` ${when}` : ""}: ${measured}`);
    return perSecond;
  } finally {
    await raw.close();
  }
}

export async function measureLatency(options: {
  datasetsDir: string;
  memories: number;
  log: (line: string) => void;
}): Promise<LatencyResult> {
  const { scifact, msmarco, texts, queries } = latencyWorkload(options.datasetsDir, options.memories);

  // The raw embedder, configured as the server's ingestion runs it (one worker is kept for queries),
  // measured before and after the load: this VM's speed drifts by several percent within minutes, and
  // the mean of both is the fairer measure of the load's own period.
  const measureRawEmbedder = (when: string) => rawEmbedderRate(texts, options.log, when);
  const rawBefore = await measureRawEmbedder("before the load");
  let t0: number;

  // BENCH_DATA_DIR keeps the loaded data for another run, which then measures recall only.
  const keptDir = process.env.BENCH_DATA_DIR;
  const reuse = Boolean(keptDir && fs.existsSync(path.join(keptDir, "bench-loaded.json")));
  const dataDir = keptDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-http-"));
  const key = "mgw_benchmarkKey00000000000000000000000000";
  const server = await startServer({
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    MEMGW_INIT_ORG_NAME: "Bench",
    MEMGW_INIT_USER_EMAIL: "bench@example.com",
    MEMGW_INIT_USER_PASSWORD: "benchmark password",
    MEMGW_INIT_API_KEY: key,
    // The per-key rate limit stays on, so its cost is in the figures, but above what one key sends here.
    API_RATE_LIMIT_PER_MINUTE: "1000000",
    MEMGW_SERVER_TIMING: "1",
  });
  const timedCall = async (urlPath: string, body: unknown, as = key) => {
    const started = performance.now();
    const answer = await sendJson(`${server.base}/api/v1${urlPath}`, as, body);
    const ms = performance.now() - started;
    return { data: dataOf(answer, urlPath), ms, stages: stagesOf(answer.headers["server-timing"]) };
  };
  const call = async (urlPath: string, body: unknown, as = key) => (await timedCall(urlPath, body, as)).data;
  // The start-up line names the embedded database's thread: its CPU is told apart from the main thread's.
  const databaseThread = Number(/its own thread: (\d+)/.exec(server.output())?.[1]) || undefined;
  try {
    await embeddingsReady(server.base);
    const loadedFile = path.join(dataDir, "bench-loaded.json");
    if (reuse) {
      const previous = JSON.parse(fs.readFileSync(loadedFile, "utf8"));
      options.log(`  reusing ${previous.memories} memories loaded in ${dataDir}`);
      // The load figures are that run's, measured in its conditions: the report says so.
      const reusedLoadFrom: string = previous.loadedAt ?? "an earlier run";
      return { ...previous, reusedLoadFrom, ...(await measureRecall(previous.namespaceId)) };
    }
    const namespace = await call("/namespaces", { name: "bench" });
    const batch = 100;
    const identities = Number(process.env.BENCH_IDENTITIES) || undefined;
    t0 = performance.now();
    let chunks = 0;
    let loaded = 0;
    let nextBatch = 0;
    // Two requests in flight, as a bulk importer would send them: one embeds while the other writes.
    await Promise.all(
      [0, 1].map(async () => {
        while (nextBatch * batch < texts.length) {
          const start = nextBatch++ * batch;
          const memories = texts.slice(start, start + batch).map((content, i) => ({
            content,
            scopes: { team: SCOPE_VALUES[(start + i) % SCOPE_VALUES.length] },
            ...(identities && { identity_id: `person-${(start + i) % identities}` }),
          }));
          const stored = await call("/remember", { namespace_id: namespace.id, memories });
          chunks += stored.reduce((sum: number, m: { chunk_count: number }) => sum + m.chunk_count, 0);
          loaded += stored.length;
          if ((loaded / batch) % 10 === 0)
            options.log(
              `  loaded ${loaded}/${texts.length} ` +
                `(${(loaded / ((performance.now() - t0) / 1000)).toFixed(1)} memories/s)`,
            );
        }
      }),
    );
    const rememberPerSecond = texts.length / ((performance.now() - t0) / 1000);
    // Let the background VACUUM ANALYZE of the postings settle first.
    await new Promise((r) => setTimeout(r, 2000));
    const rawAfter = await measureRawEmbedder("after the load");
    const rawEmbedderPerSecond = (rawBefore + rawAfter) / 2;
    options.log(
      `  remember: ${rememberPerSecond.toFixed(1)} memories/s in batches of ${batch} ` +
        `(${((rememberPerSecond / rawEmbedderPerSecond) * 100).toFixed(1)}% ` +
        `of the raw embedder's mean ${rawEmbedderPerSecond.toFixed(1)})`,
    );

    const load = {
      memories: texts.length,
      chunksPerMemory: chunks / texts.length,
      rawEmbedderPerSecond,
      rawEmbedderBeforeAfter: [rawBefore, rawAfter] as [number, number],
      rememberPerSecond,
      rememberRatio: rememberPerSecond / rawEmbedderPerSecond,
      rememberBatch: batch,
      ...(identities && { identities }),
    };
    if (keptDir)
      fs.writeFileSync(
        loadedFile,
        JSON.stringify({ ...load, namespaceId: namespace.id, loadedAt: new Date().toISOString() }),
      );
    return { ...load, ...(await measureRecall(namespace.id)) };
  } finally {
    await server.stop();
    if (!keptDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }

  async function measureRecall(namespaceId: string) {
    // A server in service has its page cache filled and its code compiled: warm both with queries that are
    // not measured (the opening words of memories), as a restarted server would be after its first minute.
    await warmUp(texts, (query) => call("/recall", { namespace_id: namespaceId, query }));
    const stageSamples: { ms: number; stages: Record<string, number> }[] = [];
    const measure = async (
      concurrency: number,
      target = namespaceId,
      measured = queries,
      samples?: typeof stageSamples,
    ): Promise<RecallLatency> => {
      const latencies: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < measured.length) {
            const query = measured[next++];
            const { ms, stages } = await timedCall("/recall", { namespace_id: target, query, top_k: 10 });
            latencies.push(ms);
            samples?.push({ ms, stages });
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(latencies, p));
      return { concurrency, requests: latencies.length, p50, p95, p99, perSecond: latencies.length / seconds };
    };
    const describe = (row: RecallLatency) =>
      `p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, ` +
      `${row.perSecond.toFixed(1)} req/s`;
    const recall: RecallLatency[] = [];
    for (const concurrency of [1, 8]) {
      // Each measurement embeds its queries: the server keeps recent query embeddings (lib/memory/embeddings),
      // so the second asks them with a mark that changes no word and no score, but the text embedded.
      const asked = concurrency === 1 ? queries : queries.map((query) => `${query}?`);
      const [serverBefore, clientBefore] = [processCpuMs(server.pid, databaseThread), process.cpuUsage()];
      const row = await measure(concurrency, namespaceId, asked, concurrency === 1 ? stageSamples : undefined);
      const [serverAfter, clientAfter] = [processCpuMs(server.pid, databaseThread), process.cpuUsage(clientBefore)];
      row.cpuMsPerRequest = {
        serverMainThread: (serverAfter.main - serverBefore.main) / row.requests,
        ...(databaseThread && {
          serverDatabaseThread: (serverAfter.database - serverBefore.database) / row.requests,
        }),
        serverOtherThreads: (serverAfter.other - serverBefore.other) / row.requests,
        client: (clientAfter.user + clientAfter.system) / 1000 / row.requests,
      };
      recall.push(row);
      const cpu = row.cpuMsPerRequest;
      options.log(
        `  recall c=${concurrency}: ${describe(row)}\n` +
          `    CPU per request (ms): server main thread ${cpu.serverMainThread.toFixed(1)}, ` +
          `database thread ${cpu.serverDatabaseThread?.toFixed(1) ?? "(none)"}, ` +
          `its other threads ${cpu.serverOtherThreads.toFixed(1)}, this client ${cpu.client.toFixed(1)}`,
      );
    }
    const recallOverRaw = await measureRecallOverRaw();
    options.log(
      `  recall c=8 ÷ raw embedder, ${recallOverRaw.rounds} alternating rounds: ` +
        `${recallOverRaw.recallPerSecond.toFixed(1)} req/s ÷ ${recallOverRaw.raw.perSecond.toFixed(1)} memories/s ` +
        `(${recallOverRaw.raw.kernels}) = ${recallOverRaw.ratio.toFixed(2)}`,
    );
    const longStages = meanStages(stageSamples);
    options.log(`  recall c=1, where the time goes (mean ms): ${describeStages(longStages)}`);
    const shortSmall = await measureShortOnSmall();
    options.log(
      `  recall c=1, questions under 8 words, namespace of ${SMALL_NAMESPACE} memories: ${describe(shortSmall)}\n` +
        `    where the time goes (mean ms): ${describeStages(shortSmall.stages)}\n` +
        `    the same questions again (embeddings kept): ${describe(shortSmall.repeated)}\n` +
        `    where the time goes (mean ms): ${describeStages(shortSmall.repeated.stages)}`,
    );
    const scopedRecall = await measureScoped();
    const change = ((scopedRecall.keyScoped.p95 / scopedRecall.unscoped.p95 - 1) * 100).toFixed(1);
    options.log(
      `  recall c=1 interleaved, team=${SCOPE_VALUES[0]} is 1/${SCOPE_VALUES.length} of the memories:\n` +
        `    unscoped key: ${describe(scopedRecall.unscoped)}\n` +
        `    unscoped key, request scopes {team: ${SCOPE_VALUES[0]}}: ${describe(scopedRecall.requestFiltered)}\n` +
        `    key scoped to team=${SCOPE_VALUES[0]}: ${describe(scopedRecall.keyScoped)} (p95 ${change}% from unscoped)`,
    );
    const scifactBeside = options.memories >= QUALITY_BESIDE_FROM ? await measureScifactBeside() : undefined;
    if (scifactBeside)
      options.log(
        `  SciFact in a namespace of its own beside them: nDCG@10 ${scifactBeside.ndcg10.toFixed(3)}, ` +
          `recall@100 ${scifactBeside.recall100.toFixed(3)}; ${describe(scifactBeside)}`,
      );
    const serverRssMiB = residentMiB(server.pid);
    return {
      warmUpQueries: WARM_UP_QUERIES,
      client: BENCH_CLIENT,
      recall,
      recallOverRaw,
      scopedRecall,
      longStages,
      shortSmall,
      scifactBeside,
      serverRssMiB,
    };

    /** RecallOverRaw: the raw embedder kept loaded between the rounds, idle while recall runs. */
    async function measureRecallOverRaw(): Promise<RecallOverRaw> {
      const raw = await openRawEmbedder(texts);
      const perRound: RecallOverRaw["perRound"] = [];
      const seconds = { recall: 0, raw: 0 };
      try {
        for (let round = 0; round < RECALL_OVER_RAW_ROUNDS; round++) {
          let rawSeconds = await raw.time(RECALL_OVER_RAW_TEXTS);
          // Every request embeds its query (see the loop above, whose 8 clients asked with one `?`): two or more.
          const asked = queries.map((query) => `${query}${"?".repeat(round + 2)}`);
          const recallSeconds = asked.length / (await measure(8, namespaceId, asked)).perSecond;
          rawSeconds += await raw.time(RECALL_OVER_RAW_TEXTS);
          seconds.recall += recallSeconds;
          seconds.raw += rawSeconds;
          perRound.push({
            recallPerSecond: asked.length / recallSeconds,
            rawPerSecond: (2 * RECALL_OVER_RAW_TEXTS) / rawSeconds,
          });
        }
      } finally {
        await raw.close();
      }
      const recallPerSecond = (queries.length * RECALL_OVER_RAW_ROUNDS) / seconds.recall;
      const rawPerSecond = (2 * RECALL_OVER_RAW_TEXTS * RECALL_OVER_RAW_ROUNDS) / seconds.raw;
      return {
        rounds: RECALL_OVER_RAW_ROUNDS,
        recallPerSecond,
        raw: { kernels: raw.kernels ?? "unknown", perSecond: rawPerSecond },
        ratio: recallPerSecond / rawPerSecond,
        perRound,
      };
    }

    /**
     * SciFact's documents in a namespace of their own (loaded once into kept data: its id is kept beside the
     * load's), then its queries, hybrid, top_k 100: nDCG@10 and recall@100 from the documents' ids in metadata.
     * The queries are asked as the quality run asks them, unmarked (a mark would move the nDCG compared with its),
     * the same texts the 1-client measurement asked; the more than 2,000 queries asked since (RecallOverRaw's
     * rounds alone ask 2,058) have pushed them out of the server's cache of recent query embeddings
     * (lib/memory/embeddings/embedder-state.ts), so each is embedded again, as every other measured recall is.
     * Runs before 5503342 answered them from that cache: their latencies are not comparable with later ones.
     */
    async function measureScifactBeside(): Promise<BesideQuality> {
      const loadedFile = path.join(dataDir, "bench-loaded.json");
      const kept = fs.existsSync(loadedFile) ? JSON.parse(fs.readFileSync(loadedFile, "utf8")) : {};
      let scifactNamespaceId: string | undefined = kept.scifactNamespaceId;
      if (!scifactNamespaceId) {
        scifactNamespaceId = (await call("/namespaces", { name: `bench-scifact-${Date.now()}` })).id as string;
        for (let i = 0; i < scifact.docs.length; i += 100)
          await call("/remember", {
            namespace_id: scifactNamespaceId,
            memories: scifact.docs.slice(i, i + 100).map((d) => ({
              content: d.title ? `${d.title}\n${d.text}` : d.text,
              metadata: { doc_id: d.id },
            })),
          });
        if (keptDir) fs.writeFileSync(loadedFile, JSON.stringify({ ...kept, scifactNamespaceId }));
      }
      let ndcg = 0;
      let found = 0;
      const latencies: number[] = [];
      const started = performance.now();
      for (const query of scifact.queries) {
        const { data, ms } = await timedCall("/recall", {
          namespace_id: scifactNamespaceId,
          query: query.text,
          top_k: 100,
        });
        latencies.push(ms);
        const ranked = (data as { metadata: { doc_id: string } }[]).map((match) => match.metadata.doc_id);
        ndcg += ndcgAt(ranked, scifact.qrels.get(query.id)!, 10);
        found += recallAt(ranked, scifact.qrels.get(query.id)!, 100);
      }
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(latencies, p));
      return {
        concurrency: 1,
        requests: latencies.length,
        p50,
        p95,
        p99,
        perSecond: latencies.length / seconds,
        docs: scifact.docs.length,
        queries: scifact.queries.length,
        ndcg10: ndcg / scifact.queries.length,
        recall100: found / scifact.queries.length,
      };
    }

    /**
     * A namespace of SMALL_NAMESPACE memories (the first texts), loaded for this run beside the large one, and
     * the MS MARCO questions of under 8 words (every one twice: first unmeasured, as warm-up of its statements).
     */
    async function measureShortOnSmall() {
      const small = await call("/namespaces", { name: `bench-small-${Date.now()}` });
      for (let i = 0; i < SMALL_NAMESPACE; i += 100)
        await call("/remember", {
          namespace_id: small.id,
          memories: texts.slice(i, Math.min(i + 100, SMALL_NAMESPACE)).map((content) => ({ content })),
        });
      // Asked with a mark of their own (see measureRecall): the first measurement embeds every question.
      const short = msmarco.queries
        .map((q) => q.text)
        .filter((text) => text.trim().split(/\s+/).length < 8)
        .map((text) => `${text};`);
      for (const query of short) await call("/recall", { namespace_id: small.id, query: `${query} first` });
      const samples: typeof stageSamples = [];
      const row = await measure(1, small.id, short, samples);
      // The same questions again, as an agent repeats them: their embeddings are kept.
      const repeatedSamples: typeof stageSamples = [];
      const repeated = await measure(1, small.id, short, repeatedSamples);
      return {
        ...row,
        memories: SMALL_NAMESPACE,
        stages: meanStages(samples),
        repeated: { ...repeated, stages: meanStages(repeatedSamples) },
      };
    }

    async function measureScoped(): Promise<ScopedRecallLatency> {
      const scopedKey = createScopedKey(namespaceId);
      const filter = { team: SCOPE_VALUES[0] };
      const kinds = [
        { name: "unscoped", as: key, scopes: undefined, mark: "." },
        { name: "requestFiltered", as: key, scopes: filter, mark: "!" },
        { name: "keyScoped", as: scopedKey, scopes: undefined, mark: "?!" },
      ] as const;
      // The scoped statements (a scope filter, per-scope statistics) are warmed too, with unmeasured queries.
      const stride = Math.max(1, Math.floor(texts.length / SCOPED_WARM_UP_QUERIES));
      for (const text of texts.filter((_, i) => i % stride === 0).slice(0, SCOPED_WARM_UP_QUERIES)) {
        const query = text.split(/\s+/).slice(0, 8).join(" ");
        for (const kind of kinds.slice(1))
          await call("/recall", { namespace_id: namespaceId, query, scopes: kind.scopes }, kind.as);
      }
      const latencies = new Map<string, number[]>(kinds.map((kind) => [kind.name, []]));
      const started = performance.now();
      for (const [i, query] of queries.entries()) {
        // Each query by all three, in an order that rotates, so that none always runs first (or cached).
        for (let k = 0; k < kinds.length; k++) {
          const kind = kinds[(i + k) % kinds.length];
          const t = performance.now();
          const asked = `${query}${kind.mark}`; // see measureRecall: every request embeds its query
          await call("/recall", { namespace_id: namespaceId, query: asked, top_k: 10, scopes: kind.scopes }, kind.as);
          latencies.get(kind.name)!.push(performance.now() - t);
        }
      }
      const seconds = (performance.now() - started) / 1000 / kinds.length;
      const row = (values: number[]): RecallLatency => {
        values.sort((a, b) => a - b);
        const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(values, p));
        return { concurrency: 1, requests: values.length, p50, p95, p99, perSecond: values.length / seconds };
      };
      return {
        unscoped: row(latencies.get("unscoped")!),
        requestFiltered: row(latencies.get("requestFiltered")!),
        keyScoped: row(latencies.get("keyScoped")!),
      };
    }
  }

  /**
   * A read key scoped to the first team, made by the command line as an operator would
   * (it reaches the running server).
   */
  function createScopedKey(namespaceId: string): string {
    const output = execFileSync(
      process.execPath,
      [
        path.join(process.cwd(), "bin/memgw.mjs"),
        "key",
        "create",
        "--org",
        "bench",
        "--name",
        "scoped bench",
        "--permissions",
        "NAMESPACE_READ",
        "--grant",
        namespaceId,
        "--scope",
        `team=${SCOPE_VALUES[0]}`,
      ],
      { env: { ...process.env, DATA_DIR: dataDir, MEMGW_PROCESS_ROLE: undefined }, encoding: "utf8" },
    );
    return JSON.parse(output).secret;
  }
}
