// Builds the production bundle unless the sources it was built from are unchanged (a fingerprint of
// every source file is kept beside the build), so `npm start` is fast after the first time.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));
const QUIET_OIDC_PROVIDER = new URL("quiet-oidc-provider-on-node20.mjs", import.meta.url).href;
/** The folders the build reads; with them, every top-level file of the kinds below (see topLevelSources). */
const SOURCE_DIRS = ["app", "components", "lib", "public", "prisma", "types"];
/** Top-level files that Next writes itself: fingerprinted, each build would change them and call for the next. */
const WRITTEN_BY_NEXT = new Set(["next-env.d.ts"]);
const SKIP = new Set(["node_modules", "generated"]);

/**
 * The top-level files (configuration, proxy.ts, instrumentation.ts, package files), found rather than named,
 * so that a file added, renamed or removed never leaves a stale name here.
 */
function topLevelSources() {
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|js|mjs|cjs|json)$/.test(entry.name) && !WRITTEN_BY_NEXT.has(entry.name))
    .map((entry) => entry.name)
    .sort();
}
/** The build directory (MEMGW_DIST_DIR, as next.config.js reads it). */
export const distDir = () => path.join(root, process.env.MEMGW_DIST_DIR || ".next");
const fingerprintFile = () => path.join(distDir(), "memgw-sources.sha256");
/** A file per process serving the build: `memgw-serving-<pid>`. */
const SERVING_PREFIX = "memgw-serving-";

function* files(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return;
  if (fs.statSync(full).isFile()) {
    yield entry;
    return;
  }
  for (const child of fs.readdirSync(full).sort()) {
    if (!SKIP.has(child) && !child.startsWith(".next") && !child.endsWith(".test.ts"))
      yield* files(path.join(entry, child));
  }
}

export function sourceFingerprint() {
  const hash = createHash("sha256");
  for (const source of [...SOURCE_DIRS, ...topLevelSources()]) {
    for (const file of files(source))
      hash
        .update(file)
        .update("\0")
        .update(fs.readFileSync(path.join(root, file)))
        .update("\0");
  }
  return hash.digest("hex");
}

function isBuilt(fingerprint) {
  if (!fs.existsSync(path.join(distDir(), "BUILD_ID")) || !fs.existsSync(fingerprintFile())) return false;
  return fs.readFileSync(fingerprintFile(), "utf8") === fingerprint;
}

/**
 * Marks the build directory as served by this process until it exits (see buildIfNeeded). A build directory this
 * process may not write (the container image's, owned by root) is left unmarked: no start can rebuild it either.
 */
export function markServing() {
  const marker = path.join(distDir(), `${SERVING_PREFIX}${process.pid}`);
  try {
    fs.writeFileSync(marker, "");
  } catch (error) {
    if (error.code === "EACCES" || error.code === "EROFS" || error.code === "EPERM") return;
    throw error;
  }
  process.on("exit", () => fs.rmSync(marker, { force: true }));
}

/** The live processes serving from the build directory (markers of processes that died are removed). */
export function servingProcesses() {
  if (!fs.existsSync(distDir())) return [];
  return fs
    .readdirSync(distDir())
    .filter((name) => name.startsWith(SERVING_PREFIX))
    .map((name) => Number(name.slice(SERVING_PREFIX.length)))
    .filter((pid) => {
      try {
        process.kill(pid, 0);
        return pid !== process.pid;
      } catch {
        fs.rmSync(path.join(distDir(), `${SERVING_PREFIX}${pid}`), { force: true });
        return false;
      }
    });
}

/**
 * For a start that must not build (MEMGW_BUILD=never: several instances sharing a checkout, a read-only
 * image): the build that is there, or a clear error when there is none. A build older than the sources is
 * served with a warning.
 */
export function requireBuild() {
  if (!fs.existsSync(path.join(distDir(), "BUILD_ID"))) {
    throw new Error(`there is no build in ${distDir()}: run \`npm run build\` first (MEMGW_BUILD=never).`);
  }
  if (!isBuilt(sourceFingerprint())) {
    console.warn("[memgw] the sources changed since the last `npm run build`: serving the build as it is.");
  }
}

/** `whileBuilding` is called as a build starts (not when the build is up to date). */
export function buildIfNeeded({ quiet = false, whileBuilding } = {}) {
  if (isBuilt(sourceFingerprint())) return false;
  // Rebuilding under a running server replaces the files it serves (its pages then fail to load).
  const serving = servingProcesses();
  if (serving.length > 0) {
    throw new Error(
      `the sources changed, but process ${serving.join(", ")} is serving the build in ${distDir()}: stop it ` +
        "before starting another, or build once with `npm run build` and start each instance with MEMGW_BUILD=never.",
    );
  }
  if (!quiet) {
    console.log(
      "Building the console and API for the first start (about a minute; later starts skip this until the " +
        "sources change)…",
    );
  }
  whileBuilding?.();
  const started = performance.now();
  // One build at a time in a build directory (two test files, or two `npm start`s, would corrupt it):
  // flock(1), where there is one, queues them, and the one that waited finds the build done.
  const lockName = createHash("sha256").update(distDir()).digest("hex").slice(0, 16);
  const lock = path.join(os.tmpdir(), `memgw-build-${lockName}.lock`);
  const build = [process.execPath, fileURLToPath(import.meta.url), "--locked"];
  const [command, ...args] = spawnSync("flock", ["--version"]).status === 0 ? ["flock", lock, ...build] : build;
  try {
    execFileSync(command, args, { cwd: root, stdio: quiet ? "pipe" : "inherit" });
  } catch (error) {
    if (quiet) throw new Error(`next build failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`, { cause: error });
    throw error;
  }
  if (!quiet) console.log(`Built in ${Math.round((performance.now() - started) / 1000)} s.`);
  return true;
}

/** The build itself, under the lock. */
function build() {
  const fingerprint = sourceFingerprint();
  if (isBuilt(fingerprint)) return;
  // `next build` adds its build directory's type files to tsconfig.json: a build in another directory
  // (MEMGW_DIST_DIR) must not leave the repository's file changed.
  const tsconfig = path.join(root, "tsconfig.json");
  const tsconfigBefore = fs.readFileSync(tsconfig, "utf8");
  try {
    execFileSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      stdio: "inherit",
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        // A rebuild (sources changed) reuses and keeps Turbopack's cache; the first build writes none (next.config.js).
        MEMGW_BUILD_CACHE: fs.existsSync(path.join(distDir(), "BUILD_ID")) ? "1" : "0",
        // Next's workers load the server bundles to collect page data: on Node 20, oidc-provider's runtime
        // notice would print once per worker (see the preloaded file).
        NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${QUIET_OIDC_PROVIDER}`].filter(Boolean).join(" "),
      },
    });
  } finally {
    if (fs.readFileSync(tsconfig, "utf8") !== tsconfigBefore) fs.writeFileSync(tsconfig, tsconfigBefore);
  }
  fs.writeFileSync(fingerprintFile(), fingerprint);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--locked")) build();
  else buildIfNeeded();
}
