// `npm run bench:compare <commit> [<commit>]`: the latency section's load and recalls on two builds in one run,
// interleaved, so that both share the machine's drift (this VM's speed moves by several percent within minutes,
// more than most changes cost). The first is the base; the second is this checkout as it stands (uncommitted
// changes included) unless named. A named commit is checked out in a worktree under the system's temporary
// directory (kept for the next run), given this checkout's node_modules when its package files are the same
// (hard links) when its lock file is the same (`npm install` otherwise) and built.
//
// The recalls are measured in two legs on the same data, each build's servers started first in one (ORDERS). Recall
// is set against the raw embedder measured between its rounds (RAW_BETWEEN_ROUNDS), remember against the load's.
//
// Settings: BENCH_MEMORIES (default 3000), BENCH_COMPARE_ROUNDS (default 3 a leg: each round asks every query at
// concurrency 1 and 8, 49 of them of one build, then of the other, the order alternating), BENCH_DATABASE_URL
// (a PostgreSQL server with pgvector and a role that may create databases: the same on PostgreSQL, one
// instance and two instances per build), BENCH_DATASETS_DIR. Prints one table per database setup; the figures
// are also written to bench/results/compare.json.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startServer, type RunningServer } from "../tests/helpers/server";
import { assertDatasetsPresent, datasetsDir as configuredDatasetsDir } from "./lib/beir";
import { BENCH_CLIENT, dataOf, embeddingsReady, sendJson } from "./lib/api-client";
import { percentile } from "./lib/percentile";
import {
  latencyWorkload,
  openRawEmbedder,
  processCpuMs,
  rawEmbedderRate,
  residentMiB,
  SCOPE_VALUES,
  SMALL_NAMESPACE,
  warmUp,
} from "./latency";
import { serverVersion } from "./databases";

const KEY = "mgw_benchmarkKey00000000000000000000000000";
const BATCH = 100;
/** Queries measured on one build before the other's turn. */
const SLICE = 49;
/**
 * Texts the raw embedder embeds before each leg's first recall round and after each: recall is set against the
 * raw embedder of the same minutes (this host's speed swings by a fifth within one), not against the load's.
 */
const RAW_BETWEEN_ROUNDS = 100;
/** Memories loaded into one build before the other's turn. */
const LOAD_SLICE = 500;
const root = path.resolve(import.meta.dirname, "..");

/** A build to measure: its checkout and how it is named in the table. */
interface Build {
  label: string;
  dir: string;
}

/** What one build costs in one setup: the sums the figures are made of. */
interface Tally {
  rememberPerSecond: number;
  latencies: Record<1 | 8, number[]>;
  seconds: Record<1 | 8, number>;
  /**
   * CPU ms over the measured recalls: the servers' main threads, the embedded database's thread, their other
   * threads, PostgreSQL's processes.
   */
  cpu: Record<1 | 8, { main: number; database: number; other: number; postgres: number }>;
  short: number[];
  rssMiB: number;
}

type Setup = "embedded" | "PostgreSQL, one instance" | "PostgreSQL, two instances";

/**
 * The legs of a setup, each with its own servers on the same data: the builds in the order given, then the other
 * way round. Started, warmed up and left idle in a fixed order, two builds with the same recall code measured 5%
 * apart to 21% apart at 8 clients on this VM (every thread of the slower server used 3–5% more CPU for the same
 * recalls), most often in favour of the build started second, once of the first. Each build is first in one leg:
 * the figures are over both, and each leg's recall rate is shown beside them (how far they differ is the noise).
 */
const ORDERS = [false, true] as const;

/** One leg's recall rate at 8 clients, by build (in the builds' order). */
interface Leg {
  firstStarted: string;
  recall8PerSecond: number[];
}

/** A build served in one setup: its servers (requests alternate between them), its namespaces and its tally. */
interface Served {
  build: Build;
  servers: RunningServer[];
  databaseThreads: (number | undefined)[];
  namespaceId: string;
  smallNamespaceId: string;
  tally: Tally;
  turn: number;
}

const datasetsDir = configuredDatasetsDir();
assertDatasetsPresent(datasetsDir, ["scifact", "msmarco-trecdl-subset"]);
const memories = Number(process.env.BENCH_MEMORIES) || 3000;
const rounds = Number(process.env.BENCH_COMPARE_ROUNDS) || 3;
const postgresUrl = process.env.BENCH_DATABASE_URL;
const [baseRef, otherRef] = process.argv.slice(2).filter((arg) => arg !== "--");
if (!baseRef) {
  console.error("usage: npm run bench:compare <base commit> [<other commit>] (the other is this checkout by default)");
  process.exit(1);
}
const builds: Build[] = [checkoutOf(baseRef), otherRef ? checkoutOf(otherRef) : thisCheckout()];
for (const build of builds) ensureBuilt(build);
const { texts, msmarco, queries } = latencyWorkload(datasetsDir, memories);
const shortQuestions = msmarco.queries.map((q) => q.text).filter((text) => text.trim().split(/\s+/).length < 8);

/** The namespaces each build (by index) loaded on PostgreSQL with one instance: the two instances recall from them. */
const loadedOnPostgres = new Map<number, Pick<Served, "namespaceId" | "smallNamespaceId">>();
const results: {
  setup: Setup;
  /** The raw embedder before the servers started and, in a setup that loads, halfway through and after the load. */
  rawEmbedderPerSecond: number;
  /** The raw embedder between the recall rounds (RAW_BETWEEN_ROUNDS texts before each leg's first and after each). */
  rawBetweenRoundsPerSecond: number;
  builds: { label: string; tally: Tally }[];
  legs: Leg[];
}[] = [];
{
  const dirs = builds.map(() => fs.mkdtempSync(path.join(os.tmpdir(), "memgw-compare-data-")));
  try {
    results.push(await measureSetup("embedded", (i) => ({ DATA_DIR: dirs[i] }), 1));
  } finally {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}
if (postgresUrl) {
  log(`PostgreSQL: ${await serverVersion(postgresUrl)}`);
  const databases = await Promise.all(builds.map(() => emptyDatabase(postgresUrl)));
  try {
    // Each build migrates its own database as it starts: a scratch database of this checkout's migrations
    // would hold migrations the other build does not know.
    for (const instances of [1, 2] as const)
      results.push(
        await measureSetup(
          instances === 1 ? "PostgreSQL, one instance" : "PostgreSQL, two instances",
          (i) => ({ DATABASE_URL: databases[i].url }),
          instances,
        ),
      );
  } finally {
    for (const database of databases) await database.drop();
  }
}
const report = results.flatMap(tableOf);
for (const line of report) log(line);
fs.mkdirSync(path.join(root, "bench/results"), { recursive: true });
fs.writeFileSync(
  path.join(root, "bench/results/compare.json"),
  JSON.stringify(
    {
      date: new Date().toISOString(),
      memories,
      legs: ORDERS.length,
      rounds,
      client: BENCH_CLIENT,
      machine: { cpu: os.cpus()[0]?.model.trim(), cores: os.cpus().length },
      report,
      results: results.map((r) => ({ ...r, builds: r.builds.map((b) => ({ label: b.label, ...summary(b.tally) })) })),
    },
    null,
    2,
  ) + "\n",
);

/**
 * Measures the builds in two legs (ORDERS) on the same data: in each, both builds' servers are started, warmed up
 * and measured in turn, round by round, the leg's first build started and warmed up first. In the first, once its
 * servers are up, the memories are loaded into each build's database, LOAD_SLICE at a time in turn (the raw
 * embedder measured before, halfway and after); PostgreSQL's two instances recall from what the one instance
 * loaded (no load figure). The second leg's servers are new processes on that data: rates compare within a leg,
 * not across legs. In each leg the raw embedder embeds RAW_BETWEEN_ROUNDS texts before the first recall round and
 * after each.
 */
async function measureSetup(
  setup: Setup,
  databaseOf: (build: number) => Record<string, string>,
  instances: 1 | 2,
): Promise<(typeof results)[number]> {
  log(`\n${setup}:`);
  const served: Served[] = builds.map((build) => ({
    build,
    servers: [],
    databaseThreads: [],
    namespaceId: "",
    smallNamespaceId: "",
    turn: 0,
    tally: {
      rememberPerSecond: 0,
      latencies: { 1: [], 8: [] },
      seconds: { 1: 0, 8: 0 },
      cpu: { 1: zeroCpu(), 8: zeroCpu() },
      short: [],
      rssMiB: 0,
    },
  }));
  const raw: number[] = [await rawEmbedderRate(texts, log)];
  // Opened at the first recall round, after the load (whose own measurements load the model again).
  let rawBeside: Awaited<ReturnType<typeof openRawEmbedder>> | undefined;
  const betweenRounds = { texts: 0, seconds: 0 };
  const rawRound = async () => {
    rawBeside ??= await openRawEmbedder(texts);
    betweenRounds.seconds += await rawBeside.time(RAW_BETWEEN_ROUNDS);
    betweenRounds.texts += RAW_BETWEEN_ROUNDS;
  };
  const legs: Leg[] = [];
  try {
    for (const [leg, reversed] of ORDERS.entries()) {
      const order = reversed ? [...served].reverse() : served;
      const before = served.map(({ tally }) => ({ requests: tally.latencies[8].length, seconds: tally.seconds[8] }));
      try {
        for (const side of order) {
          side.servers = [];
          for (let n = 0; n < instances; n++)
            side.servers.push(await serve(side.build, databaseOf(builds.indexOf(side.build))));
          side.databaseThreads = side.servers.map(
            (s) => Number(/its own thread: (\d+)/.exec(s.output())?.[1]) || undefined,
          );
        }
        log(`  leg ${leg + 1}: ${order.map((side) => side.build.label).join(" started first, then ")}`);
        if (leg === 0) await loadOnce(setup, served, raw);
        for (const side of order) await warmUpServed(side);
        await rawRound();
        // A slice of the queries at a time, one build then the other, the order alternating: this machine's speed
        // drifts within seconds (whole rounds in turn differed by 30% on a thread neither build changed).
        for (let round = 0; round < rounds; round++) {
          for (let from = 0; from < queries.length; from += SLICE) {
            const turns = (round + from / SLICE) % 2 === 0 ? order : [...order].reverse();
            for (const concurrency of [1, 8] as const) {
              // Every request embeds its query (a server keeps recent query embeddings): a mark of its own per round
              // and concurrency. Each leg's servers are new processes, their caches empty: both legs ask the same.
              const mark = "?".repeat(2 * round + (concurrency === 1 ? 1 : 2));
              const asked = queries.slice(from, from + SLICE).map((query) => `${query}${mark}`);
              for (const side of turns) await measureRecalls(side, concurrency, asked);
            }
          }
          await rawRound();
        }
        // Short questions on the small namespace, one build then the other, question by question.
        for (const [i, question] of shortQuestions.entries())
          for (const side of i % 2 === 0 ? order : [...order].reverse()) {
            const started = performance.now();
            await call(side, "/recall", { namespace_id: side.smallNamespaceId, query: `${question};`, top_k: 10 });
            side.tally.short.push(performance.now() - started);
          }
        // After the load and the recalls, as before there were legs: the second leg's servers did not load.
        if (leg === 0)
          for (const side of order)
            side.tally.rssMiB = side.servers.reduce((sum, server) => sum + residentMiB(server.pid), 0);
      } finally {
        for (const side of order) for (const server of side.servers) await server.stop();
      }
      legs.push({
        firstStarted: order[0].build.label,
        recall8PerSecond: served.map(
          ({ tally }, i) => (tally.latencies[8].length - before[i].requests) / (tally.seconds[8] - before[i].seconds),
        ),
      });
    }
  } finally {
    await rawBeside?.close();
  }
  const rawEmbedderPerSecond = raw.reduce((a, b) => a + b, 0) / raw.length;
  // Both loads took turns through the same stretch of time: each is set against the mean of the raw embedder's.
  for (const side of served) side.tally.rememberPerSecond /= rawEmbedderPerSecond;
  return {
    setup,
    rawEmbedderPerSecond,
    rawBetweenRoundsPerSecond: betweenRounds.texts / betweenRounds.seconds,
    builds: served.map((side) => ({ label: side.build.label, tally: side.tally })),
    legs,
  };
}

/** The first leg's data: loaded in turns, or, for PostgreSQL's two instances, the one instance's namespaces. */
async function loadOnce(setup: Setup, served: Served[], raw: number[]) {
  if (setup === "PostgreSQL, two instances") {
    served.forEach((side, i) => Object.assign(side, loadedOnPostgres.get(i)));
    return;
  }
  await loadInTurns(served, raw);
  if (setup === "PostgreSQL, one instance")
    served.forEach(({ namespaceId, smallNamespaceId }, i) =>
      loadedOnPostgres.set(i, { namespaceId, smallNamespaceId }),
    );
}

async function serve(build: Build, database: Record<string, string>): Promise<RunningServer> {
  const server = await startServer(
    {
      ...database,
      PORT: String(await freePort()),
      MEMGW_INIT_ORG_NAME: "Bench",
      MEMGW_INIT_USER_EMAIL: "bench@example.com",
      MEMGW_INIT_USER_PASSWORD: "benchmark password",
      MEMGW_INIT_API_KEY: KEY,
      // The per-key rate limit stays on, so its cost is in the figures, but above what one key sends here.
      API_RATE_LIMIT_PER_MINUTE: "1000000",
      MEMGW_BUILD: "never",
    },
    { checkout: build.dir },
  );
  await embeddingsReady(server.base);
  return server;
}

/** POST to one of the build's servers (in turn); the envelope's data. */
async function call(side: Served, urlPath: string, body: unknown) {
  const server = side.servers[side.turn++ % side.servers.length];
  return dataOf(await sendJson(`${server.base}/api/v1${urlPath}`, KEY, body), `${side.build.label} ${urlPath}`);
}

/**
 * The memories loaded into every build, LOAD_SLICE at a time, one build then the other, the order alternating
 * (each slice in batches, two requests in flight, as the latency section loads them); the raw embedder's rate
 * measured halfway and after, into `raw`. Then each build's small namespace.
 */
async function loadInTurns(served: Served[], raw: number[]) {
  for (const side of served) side.namespaceId = (await call(side, "/namespaces", { name: "bench" })).id;
  const seconds = served.map(() => 0);
  for (let from = 0; from < texts.length; from += LOAD_SLICE) {
    const order = (from / LOAD_SLICE) % 2 === 0 ? served : [...served].reverse();
    for (const side of order) {
      const started = performance.now();
      await remember(side, side.namespaceId, from, Math.min(from + LOAD_SLICE, texts.length), true);
      seconds[served.indexOf(side)] += (performance.now() - started) / 1000;
    }
    if (from < texts.length / 2 && from + LOAD_SLICE >= texts.length / 2) raw.push(await rawEmbedderRate(texts, log));
  }
  raw.push(await rawEmbedderRate(texts, log));
  served.forEach((side, i) => {
    side.tally.rememberPerSecond = texts.length / seconds[i];
    log(`  ${side.build.label}: remember ${side.tally.rememberPerSecond.toFixed(1)} memories/s`);
  });
  for (const side of served) {
    side.smallNamespaceId = (await call(side, "/namespaces", { name: "bench-small" })).id;
    await remember(side, side.smallNamespaceId, 0, SMALL_NAMESPACE, false);
  }
  // Let the background VACUUM ANALYZE of the postings settle.
  await new Promise((r) => setTimeout(r, 2000));
}

/** texts[start, end) into the namespace in batches, two requests in flight; each with a team scope if `scoped`. */
async function remember(side: Served, namespaceId: string, start: number, end: number, scoped: boolean) {
  let next = start;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < end) {
        const from = next;
        next = Math.min(next + BATCH, end);
        const batch = texts.slice(from, next).map((content, i) => ({
          content,
          ...(scoped && { scopes: { team: SCOPE_VALUES[(from + i) % SCOPE_VALUES.length] } }),
        }));
        await call(side, "/remember", { namespace_id: namespaceId, memories: batch });
      }
    }),
  );
}

/** Unmeasured recalls (the opening words of memories; the short questions once, marked otherwise). */
async function warmUpServed(side: Served) {
  await warmUp(texts, (query) => call(side, "/recall", { namespace_id: side.namespaceId, query }));
  for (const question of shortQuestions)
    await call(side, "/recall", { namespace_id: side.smallNamespaceId, query: `${question} first` });
}

async function measureRecalls(side: Served, concurrency: 1 | 8, asked: string[]) {
  const before = cpuOf(side);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < asked.length) {
        const query = asked[next++];
        const t = performance.now();
        await call(side, "/recall", { namespace_id: side.namespaceId, query, top_k: 10 });
        side.tally.latencies[concurrency].push(performance.now() - t);
      }
    }),
  );
  side.tally.seconds[concurrency] += (performance.now() - started) / 1000;
  const after = cpuOf(side);
  const cpu = side.tally.cpu[concurrency];
  for (const part of ["main", "database", "other", "postgres"] as const) cpu[part] += after[part] - before[part];
}

function log(line: string) {
  console.log(line);
}

function zeroCpu() {
  return { main: 0, database: 0, other: 0, postgres: 0 };
}

/** CPU ms so far of the build's servers (by thread, processCpuMs) and of every PostgreSQL process on this machine. */
function cpuOf(side: Served) {
  const total = zeroCpu();
  side.servers.forEach((server, i) => {
    const cpu = processCpuMs(server.pid, side.databaseThreads[i]);
    total.main += cpu.main;
    total.database += cpu.database;
    total.other += cpu.other;
  });
  if (postgresUrl) total.postgres = postgresCpuMs();
  return total;
}

/**
 * CPU ms of the processes named `postgres` (a server on this machine; 0 for one elsewhere), with what their
 * children used before they ended (a connection's backend ends with it: its time goes to the postmaster's).
 */
function postgresCpuMs(): number {
  let ms = 0;
  for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      if (!stat.includes("(postgres)")) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime, stime, cutime, cstime; USER_HZ is 100
      ms += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
    } catch {
      // the process ended
    }
  }
  return ms;
}

/** A tally's figures: ratios to the raw embedder are computed by the table. */
function summary(tally: Tally) {
  const row = (concurrency: 1 | 8) => {
    const latencies = tally.latencies[concurrency];
    const cpu = tally.cpu[concurrency];
    const per = (ms: number) => ms / latencies.length;
    return {
      requests: latencies.length,
      perSecond: latencies.length / tally.seconds[concurrency],
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      cpuMsPerRecall: {
        main: per(cpu.main),
        database: per(cpu.database),
        other: per(cpu.other),
        postgres: per(cpu.postgres),
        total: per(cpu.main + cpu.database + cpu.other + cpu.postgres),
      },
    };
  };
  return {
    /** NaN where the setup loaded nothing. */
    rememberShareOfRawEmbedder: tally.rememberPerSecond || Number.NaN,
    recall1: row(1),
    recall8: row(8),
    shortP50: percentile(tally.short, 50),
    shortP95: percentile(tally.short, 95),
    rssMiB: tally.rssMiB,
  };
}

/** One setup's figures as a Markdown table, with the line that says what was measured. */
function tableOf(result: (typeof results)[number]): string[] {
  const [base, other] = result.builds.map((b) => summary(b.tally));
  const raw = result.rawBetweenRoundsPerSecond;
  const cpu = (c: ReturnType<typeof summary>["recall8"]["cpuMsPerRecall"]) =>
    [c.main, c.database, c.other, ...(postgresUrl ? [c.postgres] : [])].map((ms) => ms.toFixed(1)).join(" / ") +
    ` = ${c.total.toFixed(1)}`;
  const ratio = (a: number, b: number) => (Number.isNaN(a / b) ? "—" : `${(b / a).toFixed(3)}`);
  const share = (value: number) =>
    Number.isNaN(value) ? "— (the one instance's data)" : `${(value * 100).toFixed(1)}%`;
  const rows: [string, string, string, string][] = [
    [
      "remember, batches of 100 (share of the raw embedder)",
      share(base.rememberShareOfRawEmbedder),
      share(other.rememberShareOfRawEmbedder),
      ratio(base.rememberShareOfRawEmbedder, other.rememberShareOfRawEmbedder),
    ],
    [
      "recall, 8 clients (req/s)",
      base.recall8.perSecond.toFixed(1),
      other.recall8.perSecond.toFixed(1),
      ratio(base.recall8.perSecond, other.recall8.perSecond),
    ],
    ...result.legs.map((leg, i): [string, string, string, string] => [
      `… in leg ${i + 1} (${leg.firstStarted} started first)`,
      leg.recall8PerSecond[0].toFixed(1),
      leg.recall8PerSecond[1].toFixed(1),
      ratio(leg.recall8PerSecond[0], leg.recall8PerSecond[1]),
    ]),
    [
      "recall, 8 clients, ÷ raw embedder's memories/s",
      (base.recall8.perSecond / raw).toFixed(2),
      (other.recall8.perSecond / raw).toFixed(2),
      ratio(base.recall8.perSecond, other.recall8.perSecond),
    ],
    [
      "recall, 8 clients, p50 / p95 (ms)",
      `${base.recall8.p50.toFixed(1)} / ${base.recall8.p95.toFixed(1)}`,
      `${other.recall8.p50.toFixed(1)} / ${other.recall8.p95.toFixed(1)}`,
      `${ratio(base.recall8.p50, other.recall8.p50)} / ${ratio(base.recall8.p95, other.recall8.p95)}`,
    ],
    [
      `CPU per recall, 8 clients (main / database / other${postgresUrl ? " / PostgreSQL" : ""}, ms)`,
      cpu(base.recall8.cpuMsPerRecall),
      cpu(other.recall8.cpuMsPerRecall),
      ratio(base.recall8.cpuMsPerRecall.total, other.recall8.cpuMsPerRecall.total),
    ],
    [
      "recall, 1 client, p50 / p95 (ms)",
      `${base.recall1.p50.toFixed(1)} / ${base.recall1.p95.toFixed(1)}`,
      `${other.recall1.p50.toFixed(1)} / ${other.recall1.p95.toFixed(1)}`,
      `${ratio(base.recall1.p50, other.recall1.p50)} / ${ratio(base.recall1.p95, other.recall1.p95)}`,
    ],
    [
      "CPU per recall, 1 client (ms)",
      cpu(base.recall1.cpuMsPerRecall),
      cpu(other.recall1.cpuMsPerRecall),
      ratio(base.recall1.cpuMsPerRecall.total, other.recall1.cpuMsPerRecall.total),
    ],
    [
      `short questions, namespace of ${SMALL_NAMESPACE}, p50 / p95 (ms)`,
      `${base.shortP50.toFixed(1)} / ${base.shortP95.toFixed(1)}`,
      `${other.shortP50.toFixed(1)} / ${other.shortP95.toFixed(1)}`,
      `${ratio(base.shortP50, other.shortP50)} / ${ratio(base.shortP95, other.shortP95)}`,
    ],
    [
      "server RSS after the recalls (MiB)",
      base.rssMiB.toFixed(0),
      other.rssMiB.toFixed(0),
      ratio(base.rssMiB, other.rssMiB),
    ],
  ];
  return [
    "",
    `${result.setup}: ${memories} memories, ${ORDERS.length} legs (each build started first in one) of ${rounds} ` +
      `rounds of ${queries.length} queries per concurrency, ` +
      `raw embedder ${result.rawEmbedderPerSecond.toFixed(1)} memories/s ` +
      `${result.setup === "PostgreSQL, two instances" ? "before the servers started" : "over the load"}, ` +
      `${raw.toFixed(1)} between the recall rounds (what recall is set against)`,
    "",
    `| | ${result.builds[0].label} | ${result.builds[1].label} | second ÷ first |`,
    "|---|---|---|---|",
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ];
}

/** A commit checked out (once) in a worktree of this repository, with dependencies. */
function checkoutOf(ref: string): Build {
  const commit = git(["rev-parse", "--verify", `${ref}^{commit}`]).trim();
  const dir = path.join(os.tmpdir(), "memgw-compare", commit);
  if (!fs.existsSync(path.join(dir, "package.json"))) {
    fs.rmSync(dir, { recursive: true, force: true });
    // A worktree whose directory the system's cleaning removed is still registered: forgotten first.
    git(["worktree", "prune"]);
    git(["worktree", "add", "--detach", dir, commit]);
  }
  if (!fs.existsSync(path.join(dir, "node_modules"))) {
    const same = (file: string) => git(["diff", "--quiet", commit, "--", file], { check: false }) === "";
    if (same("package-lock.json") && same("native")) {
      log(`${commit.slice(0, 7)}: this checkout's node_modules (hard links) and native builds`);
      execFileSync("cp", ["-al", path.join(root, "node_modules"), path.join(dir, "node_modules")]);
      for (const addon of fs.readdirSync(path.join(root, "native"))) {
        const built = path.join(root, "native", addon, "build");
        if (fs.existsSync(built)) execFileSync("cp", ["-r", built, path.join(dir, "native", addon, "build")]);
      }
    } else {
      log(`${commit.slice(0, 7)}: npm install (its package files differ from this checkout's)`);
      run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], dir);
    }
  }
  if (!fs.existsSync(path.join(dir, "lib/generated"))) run("node", ["scripts/prisma-generate.mjs"], dir);
  return { label: commit.slice(0, 7), dir };
}

function thisCheckout(): Build {
  const head = git(["rev-parse", "--short=7", "HEAD"]).trim();
  // The figures the benchmarks write (their results and the report) are no change to what is measured.
  const measured = ["--", ".", ":!bench/results", ":!docs/benchmarks.md"];
  const changed = git(["status", "--porcelain", "--untracked-files=no", ...measured]).trim() !== "";
  return { label: changed ? `${head} + changes` : head, dir: root };
}

/** `npm run build` where it is needed: this checkout's build script rebuilds only on a change of its sources. */
function ensureBuilt(build: Build) {
  if (build.dir === root || !fs.existsSync(path.join(build.dir, ".next/BUILD_ID"))) {
    log(`${build.label}: npm run build`);
    run("npm", ["run", "build"], build.dir);
  }
}

function git(args: string[], { check = true } = {}): string {
  const result = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  if (check && result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.status === 0 ? result.stdout : `exit ${result.status}`;
}

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} in ${cwd} exited with ${result.status}`);
}

/** An empty database on the server (each build migrates it as it starts); `drop` removes it. */
async function emptyDatabase(admin: string) {
  const pg = (await import("pg")).default;
  const name = `memgw_compare_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const query = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await query(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
