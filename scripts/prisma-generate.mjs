// postinstall: generate the Prisma client offline. `prisma generate` never runs the schema engine,
// but the CLI insists on finding one (or downloading it); any existing file satisfies it, so no download.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
execFileSync(process.execPath, ["node_modules/prisma/build/index.js", "generate"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath },
});
