// What the benchmarks' client costs: recalls at 8 clients against one server on data a latency run kept
// (BENCH_DATA_DIR), sent with fetch and with node:http (sendJson) in turn, four rounds each (each client first in
// two), with the CPU of this process and of the server per recall and the server's rate. The client shares the
// cores with the server it measures.
//   node --import tsx bench/client-cost.ts <the BENCH_DATA_DIR of a latency run>
import fs from "node:fs";
import path from "node:path";
import { freePort, startServer } from "../tests/helpers/server";
import { latencyWorkload, processCpuMs, warmUp } from "./latency";
import { dataOf, embeddingsReady, sendJson } from "./lib/api-client";
import { datasetsDir } from "./lib/beir";

const dataDir = process.argv[2];
if (!dataDir || !fs.existsSync(path.join(dataDir, "bench-loaded.json"))) {
  console.error("usage: node --import tsx bench/client-cost.ts <the BENCH_DATA_DIR of a latency run>");
  process.exit(1);
}
const KEY = "mgw_benchmarkKey00000000000000000000000000";
const ROUNDS = 4;
/**
 * Each round's questions end in a mark of their own, so that every round embeds its questions anew (the server keeps
 * query embeddings) while the words, and so the lexical leg's work, stay the same (as bench/latency.ts marks them).
 */
const MARKS = ["?", ".", "!", "?!", "..", "!!", "?.", ".!"];
const CLIENTS = 8;
const loaded = JSON.parse(fs.readFileSync(path.join(dataDir, "bench-loaded.json"), "utf8"));
const { texts, queries } = latencyWorkload(datasetsDir(), loaded.memories);
const server = await startServer({
  DATA_DIR: dataDir,
  PORT: String(await freePort()),
  MEMGW_BUILD: "never",
  // The per-key rate limit stays on, as in the latency section, but above what this sends.
  API_RATE_LIMIT_PER_MINUTE: "1000000",
});
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
  "node:http": async (body) => dataOf(await sendJson(url, KEY, body), "recall"),
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
  // Unmeasured, as the latency section warms its server (other questions), through both clients in turn.
  let turn = 0;
  await warmUp(texts, (query) =>
    clients[turn++ % 2 ? "fetch" : "node:http"]({ namespace_id: loaded.namespaceId, query }),
  );
  const tally: Record<string, Awaited<ReturnType<typeof measure>>[]> = { fetch: [], "node:http": [] };
  for (let round = 0; round < ROUNDS; round++) {
    const names = round % 2 ? ["node:http", "fetch"] : ["fetch", "node:http"];
    for (const [i, name] of names.entries()) {
      const mark = MARKS[round * names.length + i];
      const figures = await measure(
        clients[name],
        queries.map((query) => `${query}${mark}`),
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
