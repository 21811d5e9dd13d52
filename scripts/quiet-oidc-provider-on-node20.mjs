// oidc-provider (the MCP clients' OAuth server, lib/oauth) prints "Unsupported runtime. Use Node.js v22.x LTS…"
// whenever it is imported on Node 20: once per process, build workers included. Node 20 is a runtime this project
// supports and tests (CI runs every test on Node 20 and on 24), so on Node 20 exactly that line is dropped;
// every other warning, oidc-provider's own included, still prints. `npm start` imports this first, and the build
// preloads it into Next's workers (scripts/build-if-needed.mjs).
const UNSUPPORTED_RUNTIME = "oidc-provider WARNING: Unsupported runtime.";

if (process.versions.node.split(".")[0] === "20") {
  const warn = console.warn;
  console.warn = (...args) => {
    // The line may be wrapped in terminal colour codes (on a terminal, oidc-provider prints it in red).
    if (typeof args[0] === "string" && args.length === 1 && args[0].includes(UNSUPPORTED_RUNTIME)) return;
    warn.apply(console, args);
  };
}
