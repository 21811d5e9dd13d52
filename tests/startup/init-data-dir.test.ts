// scripts/init-data-dir.mjs: the first `npm start` creates the embedded database beside the build. It must
// make it where the server will look (DATA_DIR from the environment or Next's .env files), leave a directory
// that exists alone, and make nothing when the gateway uses PostgreSQL.
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-init-data-dir-"));
  made.push(dir);
  return dir;
}

/** Runs the script as scripts/start.mjs does, for Next's directory `nextDir`, from `cwd`. */
function initDataDir(nextDir: string, env: Record<string, string | undefined>, cwd = nextDir) {
  const environment = { ...process.env, DATA_DIR: undefined, DATABASE_URL: undefined, MEMGW_ROOT: undefined, ...env };
  const run = spawnSync(process.execPath, [path.resolve("scripts/init-data-dir.mjs"), nextDir], {
    cwd,
    env: environment,
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
}

test("creates the database where a .env file's DATA_DIR says, which then opens with pgvector", async () => {
  const root = tempDir();
  fs.writeFileSync(path.join(root, ".env"), "DATA_DIR=db/embedded\n");
  initDataDir(root, {});
  const dataDir = path.join(root, "db/embedded");
  expect(fs.existsSync(path.join(dataDir, "PG_VERSION"))).toBe(true);
  // Nothing made aside is left behind, and nothing at the default place.
  expect(fs.readdirSync(path.join(root, "db"))).toEqual(["embedded"]);
  expect(fs.existsSync(path.join(root, ".data"))).toBe(false);
  const pglite = await PGlite.create({ dataDir, extensions: { vector } });
  try {
    await pglite.exec("CREATE EXTENSION IF NOT EXISTS vector");
    const { rows } = await pglite.query<{ distance: number }>("SELECT '[1,0]'::vector <-> '[0,1]'::vector AS distance");
    expect(rows[0].distance).toBeCloseTo(Math.SQRT2);
  } finally {
    await pglite.close();
  }
}, 180_000);

test("a data directory that exists is left as it is", () => {
  const root = tempDir();
  const dataDir = path.join(root, ".data");
  fs.mkdirSync(dataDir);
  fs.writeFileSync(path.join(dataDir, "memgw.lock"), "held");
  initDataDir(root, {});
  expect(fs.readdirSync(dataDir)).toEqual(["memgw.lock"]);
  expect(fs.readdirSync(root)).toEqual([".data"]);
});

test("with DATABASE_URL (the environment's or a .env file's) no embedded database is made", () => {
  const fromEnvironment = tempDir();
  initDataDir(fromEnvironment, { DATABASE_URL: "postgres://memgw@localhost:1/memgw" });
  expect(fs.readdirSync(fromEnvironment)).toEqual([]);
  const fromFile = tempDir();
  fs.writeFileSync(path.join(fromFile, ".env"), "DATABASE_URL=postgres://memgw@localhost:1/memgw\n");
  initDataDir(fromFile, {});
  expect(fs.readdirSync(fromFile)).toEqual([".env"]);
});
