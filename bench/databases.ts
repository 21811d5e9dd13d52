// The same load and the same recalls, over HTTP against the production build (`npm start`), on the embedded
// database and on PostgreSQL (BENCH_DATABASE_URL: a server with pgvector and a role that may create
// databases) with one instance and with two instances sharing it, in one run: what the database and a
// second instance change on this machine.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createScratchDatabase } from "../tests/helpers/postgres-databases";
import { freePort, startServer, type RunningServer } from "../tests/helpers/server";
import { latencyWorkload, type RecallLatency } from "./latency";
import { dataOf, embeddingsReady, sendJson } from "./lib/api-client";
import { percentile } from "./lib/percentile";

export interface DatabaseSetupResult {
  setup: "embedded, one instance" | "PostgreSQL, one instance" | "PostgreSQL, two instances";
  /** POST /remember of every memory, batches of 100, two requests in flight (for two instances, one on each). */
  rememberPerSecond?: number;
  recall: RecallLatency[];
}

export interface DatabasesResult {
  memories: number;
  postgres: string;
  setups: DatabaseSetupResult[];
}

const KEY = "mgw_benchmarkKey00000000000000000000000000";
const BATCH = 100;

export async function measureDatabases(options: {
  datasetsDir: string;
  memories: number;
  postgresUrl: string;
  log: (line: string) => void;
}): Promise<DatabasesResult> {
  const { texts, queries } = latencyWorkload(options.datasetsDir, options.memories);
  const env = {
    MEMGW_INIT_ORG_NAME: "Bench",
    MEMGW_INIT_USER_EMAIL: "bench@example.com",
    MEMGW_INIT_USER_PASSWORD: "benchmark password",
    MEMGW_INIT_API_KEY: KEY,
    KEY_PEPPER: "bench-pepper",
    NEXTAUTH_SECRET: "bench-nextauth-secret",
    ENCRYPTION_KEY: "bench-encryption-key",
    API_RATE_LIMIT_PER_MINUTE: "1000000",
    // Built once before (bench/run.ts): every instance serves that build, as several instances do.
    MEMGW_BUILD: "never",
  };
  const start = async (extra: Record<string, string>) => {
    const server = await startServer({ ...env, ...extra, PORT: String(await freePort()) });
    await embeddingsReady(server.base);
    return server;
  };
  const version = await serverVersion(options.postgresUrl);
  const setups: DatabaseSetupResult[] = [];

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-databases-"));
  const embedded = await start({ DATA_DIR: dataDir });
  try {
    options.log("  embedded database, one instance:");
    setups.push((await measureSetup("embedded, one instance", [embedded])).result);
  } finally {
    await embedded.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const database = await createScratchDatabase(options.postgresUrl);
  const servers: RunningServer[] = [];
  try {
    servers.push(await start({ DATABASE_URL: database.url }));
    options.log(`  PostgreSQL ${version}, one instance:`);
    const one = await measureSetup("PostgreSQL, one instance", servers);
    setups.push(one.result);
    servers.push(await start({ DATABASE_URL: database.url }));
    options.log(`  PostgreSQL ${version}, two instances (requests alternate between them):`);
    setups.push((await measureSetup("PostgreSQL, two instances", servers, one.namespaceId)).result);
  } finally {
    for (const server of servers) await server.stop();
    await database.drop();
  }
  return { memories: options.memories, postgres: version, setups };

  /**
   * Loads the memories (unless `loaded` names a namespace that holds them), warms up, then recalls every query
   * at concurrency 1 and 8, the requests spread over `servers` in turn.
   */
  async function measureSetup(
    setup: DatabaseSetupResult["setup"],
    servers: RunningServer[],
    loaded?: string,
  ): Promise<{ result: DatabaseSetupResult; namespaceId: string }> {
    let turn = 0;
    const call = async (urlPath: string, body: unknown) => {
      const server = servers[turn++ % servers.length];
      const started = performance.now();
      const answer = await sendJson(`${server.base}/api/v1${urlPath}`, KEY, body);
      return { data: dataOf(answer, urlPath), ms: performance.now() - started };
    };
    let namespaceId = loaded;
    let rememberPerSecond: number | undefined;
    if (!namespaceId) {
      namespaceId = (await call("/namespaces", { name: `bench-${setup}` })).data.id as string;
      const started = performance.now();
      let next = 0;
      await Promise.all(
        [0, 1].map(async () => {
          while (next * BATCH < texts.length) {
            const from = next++ * BATCH;
            const memories = texts.slice(from, from + BATCH).map((content) => ({ content }));
            await call("/remember", { namespace_id: namespaceId, memories });
          }
        }),
      );
      rememberPerSecond = texts.length / ((performance.now() - started) / 1000);
      options.log(`    remember: ${rememberPerSecond.toFixed(1)} memories/s`);
    }
    // Warm-up with other queries (the opening words of memories): page caches filled, code compiled.
    for (const text of texts.slice(0, 300)) {
      await call("/recall", { namespace_id: namespaceId, query: text.split(/\s+/).slice(0, 8).join(" ") });
    }
    const recall: RecallLatency[] = [];
    for (const concurrency of [1, 8]) {
      // A mark that changes no word, so that every setup embeds each question (a server keeps recent ones).
      const mark = "?".repeat(2 * setups.length + (concurrency === 1 ? 1 : 2));
      const asked = queries.map((query) => `${query}${mark}`);
      const latencies: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < asked.length) {
            const query = asked[next++];
            latencies.push((await call("/recall", { namespace_id: namespaceId, query, top_k: 10 })).ms);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(latencies, p));
      const row = { concurrency, requests: latencies.length, p50, p95, p99, perSecond: latencies.length / seconds };
      recall.push(row);
      options.log(
        `    recall c=${concurrency}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, ` +
          `${row.perSecond.toFixed(1)} req/s`,
      );
    }
    return { result: { setup, rememberPerSecond, recall }, namespaceId };
  }
}

export async function serverVersion(url: string): Promise<string> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT current_setting('server_version') AS server, " +
        "(SELECT default_version FROM pg_available_extensions WHERE name = 'vector') AS vector",
    );
    return `${rows[0].server} with pgvector ${rows[0].vector}`;
  } finally {
    await client.end();
  }
}
