#!/usr/bin/env node
// `npx memgw` — the admin command line. It runs the TypeScript sources of lib/ through tsx, so the CLI
// and the server share one implementation of every command.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.MEMGW_ROOT ??= root;
register({ tsconfig: path.join(root, "tsconfig.json") });
const { main } = await import("../lib/admin/cli.ts");
process.exitCode = await main(process.argv.slice(2));
