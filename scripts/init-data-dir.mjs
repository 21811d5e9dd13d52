// Creates the empty embedded database where the server will look for it (DATA_DIR, as lib/config reads it,
// .env files included as Next reads them), when there is none yet and no DATABASE_URL. scripts/start.mjs
// runs it beside the first build: PGlite's initdb takes about 10 s of one core, which the build leaves
// mostly free, instead of adding them to the server's start. Only the database cluster is made here; the
// server takes the data directory's lock and migrates as it always does. The cluster is made aside and moved
// into place only if the directory still does not exist, so a process that took the directory meanwhile is
// never disturbed; whatever goes wrong here, the server makes the cluster itself as before.
import nextEnv from "@next/env";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import fs from "node:fs";
import path from "node:path";

const present = (value) => (value === undefined || value.trim() === "" ? undefined : value);
const env = process.env;
// `node scripts/init-data-dir.mjs <the directory Next serves from>`: its .env files, read as the server will.
nextEnv.loadEnvConfig(process.argv[2], false, { info() {}, error() {} });
const dir = path.resolve(present(env.MEMGW_ROOT) ?? process.cwd(), present(env.DATA_DIR) ?? ".data");

if (!present(env.DATABASE_URL) && !fs.existsSync(dir)) {
  const draft = path.join(path.dirname(dir), `.${path.basename(dir)}.initializing-${process.pid}`);
  const removeDraft = () => fs.rmSync(draft, { recursive: true, force: true });
  // Ctrl-C during the build reaches this process too: no half-made cluster is left behind.
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => (removeDraft(), process.exit(1)));
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  try {
    // As lib/db/pglite-worker.mjs opens it: the same package, the same extensions.
    const pglite = await PGlite.create({ dataDir: draft, extensions: { vector } });
    await pglite.close();
    if (!fs.existsSync(dir)) fs.renameSync(draft, dir);
  } finally {
    removeDraft();
  }
}
