// `npm start` and its build: `npm run build` once, then MEMGW_BUILD=never starts that never build (several
// instances from one checkout, a read-only image); and no start rebuilds under a server that serves the build.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { buildIfNeeded, distDir, requireBuild, servingProcesses } from "../../scripts/build-if-needed.mjs";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.MEMGW_DIST_DIR;
});

/** A build directory with a build whose sources were other than these (a stale fingerprint). */
function staleBuild(name: string) {
  process.env.MEMGW_DIST_DIR = name;
  const dir = distDir();
  made.push(dir);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "BUILD_ID"), "stale");
  fs.writeFileSync(path.join(dir, "memgw-sources.sha256"), "0".repeat(64));
  return dir;
}

test("with MEMGW_BUILD=never and no build, npm start says to run npm run build, and builds nothing", () => {
  const name = `.next-test-never-${process.pid}`;
  made.push(path.join(process.cwd(), name));
  const started = spawnSync(process.execPath, ["scripts/start.mjs"], {
    env: { ...process.env, MEMGW_DIST_DIR: name, MEMGW_BUILD: "never", PORT: "1" },
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(started.status).toBe(1);
  expect(started.stderr).toContain("cannot start: there is no build in");
  expect(started.stderr).toContain("run `npm run build` first");
  expect(fs.existsSync(path.join(process.cwd(), name))).toBe(false);
});

test("a build older than the sources is served as it is with MEMGW_BUILD=never, with a warning", () => {
  staleBuild(`.next-test-stale-${process.pid}`);
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (message: string) => void warnings.push(message);
  try {
    requireBuild();
  } finally {
    console.warn = warn;
  }
  expect(warnings.join("\n")).toContain("the sources changed since the last `npm run build`");
});

test("no rebuild under a process that serves the build: a clear error naming it instead", async () => {
  const dir = staleBuild(`.next-test-served-${process.pid}`);
  const server = spawn("sleep", ["60"]);
  try {
    fs.writeFileSync(path.join(dir, `memgw-serving-${server.pid}`), "");
    expect(() => buildIfNeeded({ quiet: true })).toThrow(
      new RegExp(`process ${server.pid} is serving the build in .*MEMGW_BUILD=never`),
    );
    expect(fs.readFileSync(path.join(dir, "BUILD_ID"), "utf8")).toBe("stale");
  } finally {
    server.kill("SIGKILL");
    await new Promise((resolve) => server.once("exit", resolve));
  }
  // The marker of a process that is gone no longer stands in the way (it is removed).
  expect(servingProcesses()).toEqual([]);
  expect(fs.readdirSync(dir).filter((name) => name.startsWith("memgw-serving-"))).toEqual([]);
});
