// The Python SDK (sdks/python) against a production server: its pytest suite (every call, typed errors,
// retries through a fault-injecting proxy, pagination, export/import, the example agent) and its strict type check.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";
import { newDataDir } from "../helpers/embedded-template";
import { onPostgres } from "../helpers/postgres";
import { freePort, startServer, type RunningServer } from "../helpers/server";

// Its own build directory (shared with the other files that start production servers), never a developer's .next.
process.env.MEMGW_DIST_DIR = ".next-test-server";
// Debian's Python, which has the httpx and pytest the suite runs on (the first python3 on PATH may be another).
const PYTHON = "/usr/bin/python3";
const INSTALL = "apt-get install -y python3-httpx python3-pytest mypy";
const INIT = {
  MEMGW_INIT_ORG_NAME: "Python SDK Tests",
  MEMGW_INIT_USER_EMAIL: "sdk@python.example",
  MEMGW_INIT_USER_PASSWORD: "a long test password",
  MEMGW_INIT_API_KEY: "mgw_pythonSdkHarnessKey0123456789abcdef",
};
/** The organization's slug, made from its name at the headless first start. */
const ORG_SLUG = "python-sdk-tests";

function missingTools(): string[] {
  const missing = [];
  if (spawnSync(PYTHON, ["-c", "import httpx, pytest"]).status !== 0) missing.push(`httpx and pytest for ${PYTHON}`);
  if (spawnSync("mypy", ["--version"]).status !== 0) missing.push("mypy");
  return missing;
}

const missing = missingTools();
// A machine without them skips, saying what to install; CI must have them (.ci/run installs them).
const skipped = missing.length > 0 && process.env.CI !== "true";
if (skipped) {
  console.warn(`[memgw tests] the Python SDK's tests are skipped: ${missing.join(" and ")} missing (${INSTALL}).`);
}

interface Finished {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], env: Record<string, string | undefined>): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

// The SDK is a client: what it drives of the server runs on PostgreSQL in the files about the server itself.
describe.skipIf(skipped || onPostgres())("the Python SDK", { timeout: 600_000 }, () => {
  let dir: string | undefined;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    if (missing.length > 0) return;
    buildIfNeeded({ quiet: true });
    dir = newDataDir("memgw-sdk-python-");
    const port = await freePort();
    server = await startServer({
      DATA_DIR: dir,
      PORT: String(port),
      ...INIT,
      // A fresh key reaches a real 429 within a few seconds of cheap requests.
      API_RATE_LIMIT_PER_MINUTE: "600",
      // A URL document is fetched from a page the tests serve on 127.0.0.1.
      ALLOW_PRIVATE_OUTBOUND: "true",
    });
  });

  afterAll(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test("pytest sdks/python/tests passes against the server", async () => {
    expect(missing, `install them: ${INSTALL}`).toEqual([]);
    const pytest = await run(PYTHON, ["-m", "pytest", "-q", "sdks/python/tests"], {
      MEMGW_PROCESS_ROLE: undefined,
      MEMGW_TEST_BASE_URL: server!.base,
      MEMGW_TEST_API_KEY: INIT.MEMGW_INIT_API_KEY,
      MEMGW_TEST_DATA_DIR: dir,
      MEMGW_TEST_ORG: ORG_SLUG,
    });
    expect(pytest.code, pytest.output).toBe(0);
  });

  test("the README's Python walk-through runs as written", async () => {
    const readme = fs.readFileSync("README.md", "utf8");
    const block = /<!-- walkthrough-py[^>]*-->\s*```python\n([\s\S]*?)```/.exec(readme)![1];
    const script = block.replace('"http://localhost:3000"', JSON.stringify(server!.base));
    const walk = await run(PYTHON, ["-c", script], {
      PYTHONPATH: "sdks/python",
      MEMGW_API_KEY: INIT.MEMGW_INIT_API_KEY,
    });
    expect(walk.code, walk.output).toBe(0);
    const [match, answer] = walk.output.trim().split("\n");
    expect(match).toMatch(/^I adopted a golden retriever named Max last spring\. 0\.\d+$/);
    expect(answer).toContain("Max");
  });

  test("mypy --strict passes on the SDK and the example agent", async () => {
    expect(missing, `install them: ${INSTALL}`).toEqual([]);
    const mypy = await run(
      "mypy",
      [
        "--strict",
        "--config-file",
        "sdks/python/pyproject.toml",
        // No cache written into the checkout.
        "--cache-dir",
        "/dev/null",
        "sdks/python/memory_gateway",
        "examples/python-agent",
      ],
      {},
    );
    expect(mypy.code, mypy.output).toBe(0);
  });
});
