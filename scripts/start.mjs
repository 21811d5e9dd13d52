// `npm start`: build when needed (never with MEMGW_BUILD=never), then serve the console and API from this
// process (migrations run as it starts). It listens only once the gateway holds its data directory and has
// opened the database, and on SIGTERM or SIGINT it drains the requests in flight, closes the database and exits.
import "./quiet-oidc-provider-on-node20.mjs";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { buildIfNeeded, markServing, requireBuild, root } from "./build-if-needed.mjs";
import { createGatewayServer } from "./http-server.mjs";

const DRAIN_TIMEOUT_MS = 10_000;

let creatingDataDir;
try {
  // MEMGW_BUILD=never: serve what `npm run build` made, never build (several instances, a read-only image).
  if (process.env.MEMGW_BUILD === "never") requireBuild();
  else buildIfNeeded({ whileBuilding: () => (creatingDataDir = createDataDirMeanwhile()) });
} catch (error) {
  fail(error.message);
}
// Awaited before the server opens the database: it finds the directory made, or makes it as before.
await creatingDataDir;
markServing();
// PORT is checked with every other setting as the gateway starts (lib/config), before anything listens.
process.env.PORT ||= "3000";
const port = Number(process.env.PORT);
// As `next start` sets them (a custom server is not given them): instrumentation.ts reads NEXT_RUNTIME.
process.env.NODE_ENV = "production";
process.env.NEXT_RUNTIME = "nodejs";
process.env.NEXT_TELEMETRY_DISABLED = "1";
// The server below sets the client-address header from the socket (lib/net/client-address.ts trusts it only then).
process.env.MEMGW_SERVER_SETS_CLIENT_ADDRESS = "1";

let gateway;
let server;
let stopping = false;
// lib/startup.ts hands the started gateway over here (from instrumentation.ts, while `prepared` runs).
globalThis[Symbol.for("memgw.gateway-host")] = { started: (started) => (gateway = started) };

const { default: next } = await import("next");
const app = next({ dev: false, dir: root, port });
// In production Next runs instrumentation.ts on its first request rather than in prepare(): run it now,
// so that the gateway has started (or failed) before anything is served.
const prepared = app.prepare().then(async () => (await app.server.getServer()).prepare());
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(signal));
// Next logs an uncaught error and carries on: a start that went wrong must end the process instead.
await prepared.catch((error) => fail(error.message));
if (!gateway) fail("the gateway did not start (instrumentation.ts did not run).");
server = createGatewayServer(app.getRequestHandler(), {
  isTrustedProxy: (address) => gateway.isTrustedProxy(address),
  directRoute: (method, path) => gateway.directRoutes.get(`${method} ${path}`),
});
if (!stopping) {
  server.once("error", async (error) => {
    await gateway.stop();
    fail(error.code === "EADDRINUSE" ? `port ${port} is in use.` : error.message);
  });
  server.listen(port, () => gateway.announce());
}

/**
 * The build leaves most of a core idle: the embedded database, when there is none yet, is created meanwhile
 * by a process of its own (this one waits for the build), see scripts/init-data-dir.mjs. Its output is not
 * shown: if it fails, the server creates the database and reports what is wrong.
 */
function createDataDirMeanwhile() {
  const script = fileURLToPath(new URL("init-data-dir.mjs", import.meta.url));
  const child = spawn(process.execPath, [script, root], { stdio: "ignore" });
  return new Promise((resolve) => child.once("close", resolve).once("error", resolve));
}

function stop(signal) {
  if (stopping) {
    console.error(`[memgw] ${signal} again: exiting without waiting.`);
    process.exit(1);
  }
  console.log(`[memgw] ${signal}: finishing the requests in flight, then stopping.`);
  stopping = true;
  void (async () => {
    await prepared; // a signal during the start waits for it: a migration is never cut halfway
    if (server?.listening) await server.drain(DRAIN_TIMEOUT_MS);
    await gateway?.stop();
    console.log("[memgw] stopped.");
    process.exit(0);
  })().catch((error) => {
    console.error("[memgw] could not stop cleanly:", error);
    process.exit(1);
  });
}

function fail(reason) {
  console.error(`[memgw] cannot start: ${reason}`);
  process.exit(1);
}
