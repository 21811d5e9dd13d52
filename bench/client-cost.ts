// What the benchmarks' client costs: recalls at 8 clients against one server on data a latency run kept
// (BENCH_DATA_DIR), sent with fetch and with node:http (sendJson) in turn, three rounds each, with the CPU of this
// process and of the server per recall and the server's rate. The client shares the cores with the server it measures.
//   node --import tsx bench/client-cost.ts <the BENCH_DATA_DIR of a latency run>
import fs from "node:fs";
import path from "node:path";
import { freePort, startServer } from "../tests/helpers/server";
import { latencyWorkload, processCpuMs } from "./latency";
import { embeddingsReady, sendJson } from "./lib/api-client";
import { datasetsDir } from "./lib/beir";

const dataDir = process.argv[2];
if (!dataDir || !fs.existsSync(path.join(dataDir, "bench-loaded.json"))) {
  console.error("usage: node --import tsx bench/client-cost.ts <the BENCH_DATA_DIR of a latency run>");
  process.exit(1);
}
const KEY = "mgw_benchmarkKey00000000000000000000000000";
const ROUNDS = 3;
const CLIENTS = 8;
const loaded = JSON.parse(fs.readFileSync(path.join(dataDir, "bench-loaded.json"), "utf8"));
const { queries } = latencyWorkload(datasetsDir(), loaded.memories);
const server = await startServer({ DATA_DIR: dataDir, PORT: String(await freePort()), MEMGW_BUILD: "never" });
const databaseThread = Number(/its own thread: (\d+)/.exec(server.output())?.[1]) || undefined;

type Send = (body: unknown) => Promise<unknown>;
const url = `${server.base}/api/v1/recall`;
const clients: Record<string, Send> = {
  fetch: async (body) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`recall: ${response.status} ${await response.text()}`);
    return (await response.json()).data;
  },
  "node:http": async (body) => {
    const answer = await sendJson(url, KEY, body);
    if (answer.status >= 300) throw new Error(`recall: ${answer.status} ${answer.text}`);
    return JSON.parse(answer.text).data;
  },
};

async function measure(send: Send, asked: string[]) {
  const [client, before, started] = [process.cpuUsage(), processCpuMs(server.pid, databaseThread), performance.now()];
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < asked.length) await send({ namespace_id: loaded.namespaceId, query: asked[next++], top_k: 10 });
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const [used, after] = [process.cpuUsage(client), processCpuMs(server.pid, databaseThread)];
  const serverMs = after.main + after.database + after.other - before.main - before.database - before.other;
  return {
    perSecond: asked.length / seconds,
    clientMs: (used.user + used.system) / 1000 / asked.length,
    serverMs: serverMs / asked.length,
  };
}

try {
  await embeddingsReady(server.base);
  // Unmeasured: the server's code and caches warm, with questions the rounds do not ask.
  for (const query of queries.slice(0, 300))
    await clients["node:http"]({ namespace_id: loaded.namespaceId, query: `${query} warm` });
  const tally: Record<string, Awaited<ReturnType<typeof measure>>[]> = { fetch: [], "node:http": [] };
  for (let round = 0; round < ROUNDS; round++) {
    // The order alternates, and every round's questions are new to the server (no kept embedding).
    const names = round % 2 ? ["node:http", "fetch"] : ["fetch", "node:http"];
    for (const name of names) {
      const figures = await measure(
        clients[name],
        queries.map((query) => `${query} (${name}, round ${round})`),
      );
      tally[name].push(figures);
      console.log(
        `round ${round + 1}, ${name}: ${figures.perSecond.toFixed(1)} req/s; CPU per recall: this client ` +
          `${figures.clientMs.toFixed(2)} ms, the server ${figures.serverMs.toFixed(2)} ms`,
      );
    }
  }
  for (const [name, rounds] of Object.entries(tally)) {
    const mean = (pick: (f: (typeof rounds)[number]) => number) =>
      rounds.reduce((sum, f) => sum + pick(f), 0) / rounds.length;
    console.log(
      `${name}: ${mean((f) => f.perSecond).toFixed(1)} req/s, client ${mean((f) => f.clientMs).toFixed(2)} ms, ` +
        `server ${mean((f) => f.serverMs).toFixed(2)} ms per recall (mean of ${rounds.length} rounds)`,
    );
  }
} finally {
  await server.stop();
}
