// Builds the production bundle unless the sources it was built from are unchanged (a fingerprint of
// every source file is kept beside the build), so `npm start` is fast after the first time.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));
const SOURCES = ["app", "components", "lib", "public", "prisma", "instrumentation.ts", "proxy.ts", "next.config.js", "postcss.config.mjs", "package.json", "tsconfig.json"];
const SKIP = new Set(["node_modules", "generated"]);
/** The build directory (MEMGW_DIST_DIR, as next.config.js reads it). */
export const distDir = () => path.join(root, process.env.MEMGW_DIST_DIR || ".next");
const fingerprintFile = () => path.join(distDir(), "memgw-sources.sha256");

function* files(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return;
  if (fs.statSync(full).isFile()) {
    yield entry;
    return;
  }
  for (const child of fs.readdirSync(full).sort()) {
    if (!SKIP.has(child) && !child.startsWith(".next") && !child.endsWith(".test.ts")) yield* files(path.join(entry, child));
  }
}

export function sourceFingerprint() {
  const hash = createHash("sha256");
  for (const source of SOURCES) {
    for (const file of files(source)) hash.update(file).update("\0").update(fs.readFileSync(path.join(root, file))).update("\0");
  }
  return hash.digest("hex");
}

export function buildIfNeeded({ quiet = false } = {}) {
  const fingerprint = sourceFingerprint();
  const built = fs.existsSync(path.join(distDir(), "BUILD_ID")) && fs.existsSync(fingerprintFile()) && fs.readFileSync(fingerprintFile(), "utf8") === fingerprint;
  if (built) return false;
  if (!quiet) console.log("Building Memory Gateway (first start, or the sources changed)…");
  try {
    execFileSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      stdio: quiet ? "pipe" : "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
  } catch (error) {
    if (quiet) throw new Error(`next build failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
    throw error;
  }
  fs.writeFileSync(fingerprintFile(), fingerprint);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildIfNeeded();
