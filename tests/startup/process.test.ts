// The server process: one per data directory (a lock the operating system releases with the process),
// ready only once it holds it, a clean stop on SIGTERM, and the JSON envelope for every API answer,
// including those of the HTTP layer itself.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acquireDataDirLock, DataDirInUseError, liveLockOwner, lockPath } from "@/lib/db/lock";
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";
import { freePort, startServer, type RunningServer } from "../helpers/server";
import { onPostgres } from "../helpers/postgres";

// The same build directory as tests/startup/server.test.ts (builds take turns), never a developer's .next.
process.env.MEMGW_DIST_DIR = ".next-test-server";

const INIT = {
  MEMGW_INIT_ORG_NAME: "Process Inc",
  MEMGW_INIT_USER_EMAIL: "ops@process.example",
  MEMGW_INIT_USER_PASSWORD: "a long operator password",
  MEMGW_INIT_API_KEY: "mgw_processBootstrapKey0123456789abcdef",
};
const auth = { authorization: `Bearer ${INIT.MEMGW_INIT_API_KEY}` };
const tempDir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `memgw-${name}-`));

/**
 * Resolves once `condition` holds (checked every 20 ms), or fails after `ms`. Polling, because what it
 * waits on is the operating system's (another process's state, a port that may answer): no event tells it.
 */
async function until(condition: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${condition}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A JSON line printed by a child process (see tests/helpers/hold-data-dir.ts). */
function holdDataDir(dir: string, platform: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/hold-data-dir.ts"], {
    env: { ...process.env, DATA_DIR: dir, LOCK_PLATFORM: platform },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const report = new Promise<{ held: boolean; pid: number }>((resolve) => {
    let output = "";
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      if (output.includes("\n")) resolve(JSON.parse(output.split("\n")[0]));
    });
  });
  return { child, exited, report };
}

describe("the data directory lock", () => {
  test("a lock file naming a live process does not hold the directory: only a live holder does", async () => {
    const dir = tempDir("lockfile");
    // What a killed server leaves behind, with a pid that is alive now (as a reused pid or a zombie would be).
    const leftBehind = { pid: process.pid, role: "server", startedAt: new Date().toISOString() };
    fs.writeFileSync(lockPath(dir), JSON.stringify(leftBehind));
    expect(await liveLockOwner(dir)).toBeUndefined();
    const lock = await acquireDataDirLock(dir, "test");
    expect(await liveLockOwner(dir)).toMatchObject({ pid: process.pid, role: "test" });
    lock.release();
    expect(await liveLockOwner(dir)).toBeUndefined();
    expect(fs.existsSync(lockPath(dir))).toBe(false);
  });

  // The socket-file kind is the one macOS uses; Linux can run it too.
  const kinds = process.platform === "linux" ? ["linux", "darwin"] : [process.platform];
  test.each(kinds)("%s kind: a live holder keeps the directory, one killed with -9 frees it", async (platform) => {
    const dir = tempDir(`lock-${platform}`);
    const holder = holdDataDir(dir, platform);
    const { held, pid } = await holder.report;
    expect(held).toBe(true);

    const refused = await acquireDataDirLock(dir, "test", platform as NodeJS.Platform).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as Error).message).toContain(`in use by process ${pid} (holder)`);

    holder.child.kill("SIGKILL");
    await holder.exited;
    // A socket file outlives its holder; it must not block the next one.
    if (platform === "darwin") expect(fs.existsSync(path.join(dir, "memgw-lock.sock"))).toBe(true);
    const lock = await acquireDataDirLock(dir, "test", platform as NodeJS.Platform);
    expect(await liveLockOwner(dir, platform as NodeJS.Platform)).toMatchObject({ pid: process.pid });
    lock.release();
  });
});

// Every start of a production server takes seconds (more on a busy machine).
describe("npm start", { timeout: 300_000 }, () => {
  const dir = tempDir("process");
  let port: number;
  let server: RunningServer | undefined;
  const stopped: RunningServer[] = [];
  const env = (extra: Record<string, string> = {}) => ({ DATA_DIR: dir, PORT: String(port), ...INIT, ...extra });
  const running = async () => (server ??= await startServer(env()));

  async function call(method: string, urlPath: string, body?: unknown) {
    const response = await fetch(`${(await running()).base}/api/v1${urlPath}`, {
      method,
      headers: { ...auth, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: await response.json() };
  }

  /** A request exactly as given (fetch would refuse TRACE and normalize some URLs). */
  type RawOptions = { headers?: Record<string, string>; body?: string };
  function raw(method: string, target: string, { headers = {}, body }: RawOptions = {}) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
      const request = http.request({ host: "127.0.0.1", port, method, path: target, headers }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, text }));
      });
      request.on("error", reject);
      request.end(body);
    });
  }

  beforeAll(async () => {
    buildIfNeeded({ quiet: true });
    port = await freePort();
  });

  afterAll(async () => {
    for (const each of [...stopped, server]) await each?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test.runIf(process.platform === "linux")(
    "restarting right after kill -9 works every time, while the killed server is still a zombie, and keeps its data",
    async () => {
      const processState = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1][0];
      const names: string[] = [];
      for (let round = 1; round <= 3; round++) {
        // Started right after the previous round's kill: that server is a zombie now (checked below).
        const killed = await startServer(env(), { unreaped: true });
        stopped.push(killed);
        const name = `before kill ${round}`;
        const created = await fetch(`${killed.base}/api/v1/namespaces`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ name }),
        });
        expect(created.status).toBe(201);
        names.push(name);
        process.kill(killed.pid, "SIGKILL");
        await until(() => processState(killed.pid) === "Z");
      }
      const listed = await call("GET", "/namespaces?page_size=100");
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((ns: { name: string }) => ns.name).sort()).toEqual(names);
    },
  );

  // The embedded database's own guard: on PostgreSQL several servers share the database.
  test.skipIf(onPostgres())(
    "a second server on the same data directory refuses with a clear error and never answers /health",
    async () => {
      const first = await running();
      const secondPort = await freePort();
      const second = spawn(process.execPath, ["scripts/start.mjs"], {
        env: { ...process.env, MEMGW_PROCESS_ROLE: undefined, DATA_DIR: dir, PORT: String(secondPort) },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      second.stdout.on("data", (chunk) => (output += chunk));
      second.stderr.on("data", (chunk) => (output += chunk));
      let exitCode: number | null | undefined;
      second.on("exit", (code) => (exitCode = code));
      const answers: number[] = [];
      await until(async () => {
        const health = await fetch(`http://127.0.0.1:${secondPort}/api/v1/health`).catch(() => undefined);
        if (health) answers.push(health.status);
        return exitCode !== undefined;
      }, 60_000);
      expect(answers).toEqual([]);
      expect(exitCode).toBe(1);
      expect(output).toMatch(new RegExp(`data directory .* is in use by process ${first.pid} \\(server\\)`));
      expect(output).not.toContain("is ready at");
      expect((await call("GET", "/health")).status).toBe(200);
    },
  );

  test.each([
    ["API_RATE_LIMIT_PER_MINUTE", "lots", /API_RATE_LIMIT_PER_MINUTE must be a whole number/],
    ["TRUSTED_PROXIES", "10.0.0.0/8, proxy.internal", /TRUSTED_PROXIES: "proxy.internal" is not an IP address/],
  ])("a wrong %s stops the start with a clear message, not each request", async (name, value, message) => {
    const refused = await startServer({
      DATA_DIR: tempDir("settings"),
      PORT: String(await freePort()),
      [name]: value,
    }).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(message);
  });

  const hundredKilobytes = "a".repeat(100_000);
  const jsonWithKey = { ...auth, "content-type": "application/json" };
  const overFiveMegabytes = JSON.stringify({ namespace_id: "ns_x", content: "b".repeat(5 * 1024 * 1024 + 1) });
  test.each([
    ["GET", "/api/v1/no-such-thing", 404, "NOT_FOUND"],
    ["GET", "/api/v1", 404, "NOT_FOUND"],
    ["OPTIONS", "/api/v1/no-such-thing", 404, "NOT_FOUND"],
    ["PUT", "/api/v1/namespaces", 405, "METHOD_NOT_ALLOWED"],
    ["TRACE", "/api/v1/namespaces", 405, "METHOD_NOT_ALLOWED"],
    ["PROPFIND", "/api/v1/namespaces", 405, "METHOD_NOT_ALLOWED"],
    ["POST", "/api/v1/remember", 413, "PAYLOAD_TOO_LARGE", { headers: jsonWithKey, body: overFiveMegabytes }],
    ["GET", "/api/v1/health", 431, "REQUEST_HEADERS_TOO_LARGE", { headers: { "x-filler": hundredKilobytes } }],
    ["GET", "/api/v1/namespaces/%ED%A0%80", 400, "BAD_REQUEST"],
    ["GET", "/api/v1/%", 400, "BAD_REQUEST"],
    ["GET", "/api/v1/namespaces/%00", 400, "BAD_REQUEST"],
    ["GET", "/api/v1/namespaces?page=%00", 400, "BAD_REQUEST"],
    ["GET", "/api/v1/memories/m_1?namespace_id=%E0%A4%A", 400, "BAD_REQUEST"],
  ] as [string, string, number, string, RawOptions?][])("%s %s → %i %s in the JSON envelope", async (...row) => {
    const [method, target, status, code, options] = row;
    await running();
    const response = await raw(method, target, options);
    expect(response.status).toBe(status);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    const body = JSON.parse(response.text);
    expect(body).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
    const detail = expect.objectContaining({ field: expect.any(String), message: expect.any(String) });
    if (status === 400) expect(body.error.details).toEqual([detail]);
    // Whoever answers (the route, or the server in front for what never reaches one) names the request.
    expect(response.headers["request-id"]).toMatch(/^req_[\w-]{16}$/);
    expect(body.error.request_id).toBe(response.headers["request-id"]);
  });

  test("the server still answers after those requests, and pages outside the API are untouched", async () => {
    expect((await call("GET", "/health")).status).toBe(200);
    const page = await raw("GET", "/");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
  });

  test("SIGTERM lets a request in flight finish, closes the database cleanly and exits 0", async () => {
    const draining = await running();
    const namespace = (await call("POST", "/namespaces", { name: "drained" })).body.data;
    const sentence = "The lighthouse keeper logs every passing ship, its flag and the hour, in a leather book. ";
    // A second of embedding, well within the 10 s that a stop waits for the requests in flight even on a busy
    // machine (30 such memories outlasted it once under CI at a load of ~15; the signal comes while the body is
    // sent, so any size is in flight).
    const memories = Array.from({ length: 8 }, (_, i) => ({ content: `Entry ${i}. ${sentence.repeat(6)}` }));
    const body = JSON.stringify({ namespace_id: namespace.id, memories });
    const result = await new Promise<{ status: number; body: { data: { id: string }[] } }>((resolve, reject) => {
      const request = http.request(
        `${draining.base}/api/v1/remember`,
        { method: "POST", headers: { ...auth, "content-type": "application/json", expect: "100-continue" } },
        (response) => {
          let text = "";
          response.on("data", (chunk) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
        },
      );
      request.on("error", reject);
      // The server asks for the body only once it has taken the request: the signal finds it in flight.
      request.on("continue", () => {
        request.end(body);
        draining.process.kill("SIGTERM");
      });
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toHaveLength(8);
    expect(await draining.exited).toBe(0);
    expect(draining.output()).toContain("[memgw] stopped.");
    server = undefined;

    const restarted = await running();
    expect(restarted.output()).toContain("migrations applied now: 0");
    for (const memory of [result.body.data[0], result.body.data[7]]) {
      expect((await call("GET", `/memories/${memory.id}?namespace_id=${namespace.id}`)).status).toBe(200);
    }
  });
});
