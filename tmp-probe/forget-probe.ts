import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startServer } from "../tests/helpers/server";
import { apiCaller, embeddingsReady } from "../bench/lib/api-client";

const KEY = "mgw_benchmarkWebhooksKey0000000000000000000";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-probe-"));
const server = await startServer({
  DATA_DIR: dir, PORT: String(await freePort()), MEMGW_INIT_ORG_NAME: "Probe", MEMGW_INIT_USER_EMAIL: "p@example.com",
  MEMGW_INIT_USER_PASSWORD: "probe password", MEMGW_INIT_API_KEY: KEY, MEMGW_BUILD: "never", API_RATE_LIMIT_PER_MINUTE: "0",
});
await embeddingsReady(server.base);
const call = apiCaller(server.base, KEY);
let n = 0;
for (const size of [100, Number(process.env.BIG || 2000)]) {
  const ns = await call("POST", "/namespaces", { name: `ns-${size}` });
  const ids: string[] = [];
  while (ids.length < size) {
    const batch = await call("POST", "/remember", { namespace_id: ns.id, memories: Array.from({ length: 100 }, () => ({ content: `Probe memory ${n++} about cells, proteins and the immune response in mice ${n * 7}` })) });
    ids.push(...batch.map((m: { id: string }) => m.id));
  }
  const lat: number[] = [];
  for (const id of ids.slice(0, 60)) {
    const t = performance.now();
    await call("POST", "/forget", { namespace_id: ns.id, memory_ids: [id] });
    lat.push(performance.now() - t);
  }
  lat.sort((a, b) => a - b);
  console.log(`namespace of ${size}: forget p50 ${lat[30].toFixed(1)} ms, p90 ${lat[54].toFixed(1)} ms`);
  if (process.env.PATCH) {
    const pl: number[] = [];
    for (const id of ids.slice(60, 120)) {
      const t = performance.now();
      await call("PATCH", `/memories/${id}`, { metadata: { touched: true } });
      pl.push(performance.now() - t);
    }
    pl.sort((a, b) => a - b);
    console.log(`  patch metadata p50 ${pl[30].toFixed(1)} ms`);
  }
}
await server.stop();
fs.rmSync(dir, { recursive: true, force: true });
