// `npm start`: build when needed, then serve the console and API (migrations run as the server starts).
import { spawn } from "node:child_process";
import path from "node:path";
import { buildIfNeeded, root } from "./build-if-needed.mjs";

buildIfNeeded();
const port = process.env.PORT || "3000";
const server = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", port], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, PORT: port, NEXT_TELEMETRY_DISABLED: "1" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
