// An idempotent retry after a server restart: the real server (npm start) on the embedded database answers
// a request with an Idempotency-Key, is killed with -9 and started again on the same data directory; the
// client's retries get the first answers and nothing is done twice.
import fs from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";
import { freePort, startServer, type RunningServer } from "../helpers/server";
import { newDataDir } from "../helpers/embedded-template";

// The same build directory as tests/startup/server.test.ts (builds take turns), never a developer's .next.
process.env.MEMGW_DIST_DIR = ".next-test-server";

const API_KEY = "mgw_idempotentRestartBootstrapKey0123456789";

let dataDir: string | undefined;
const servers: RunningServer[] = [];

beforeAll(() => {
  buildIfNeeded({ quiet: true });
  dataDir = newDataDir("memgw-idempotency-restart-");
});

afterAll(async () => {
  for (const server of servers) await server.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(port: number) {
  const server = await startServer({
    PORT: String(port),
    DATA_DIR: dataDir!,
    KEY_PEPPER: "idempotency-restart-pepper",
    ENCRYPTION_KEY: "idempotency-restart-encryption-key",
    MEMGW_INIT_ORG_NAME: "Retry Inc",
    MEMGW_INIT_USER_EMAIL: "ops@retry.example",
    MEMGW_INIT_USER_PASSWORD: "a long operator password",
    MEMGW_INIT_API_KEY: API_KEY,
  });
  servers.push(server);
  return server;
}

async function call(server: RunningServer, method: string, route: string, body?: unknown, idempotencyKey?: string) {
  const response = await fetch(`${server.base}/api/v1${route}`, {
    method,
    headers: {
      authorization: `Bearer ${API_KEY}`,
      "content-type": "application/json",
      ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.status,
    replayed: response.headers.get("idempotent-replayed"),
    body: await response.json(),
  };
}

test.runIf(process.platform === "linux")(
  "retries after a kill -9 and a restart get the first answers: one namespace, one memory",
  async () => {
    const port = await freePort();
    const first = await start(port);
    const createNamespace = { name: "retried" };
    const created = await call(first, "POST", "/namespaces", createNamespace, "create-retried");
    expect(created.status).toBe(201);
    const remember = {
      namespace_id: created.body.data.id,
      content: "The delivery van is parked behind the bakery on weekdays.",
      allow_duplicate: true,
    };
    const remembered = await call(first, "POST", "/remember", remember, "remember-retried");
    expect(remembered.status).toBe(201);
    process.kill(first.pid, "SIGKILL");
    await first.exited;

    const second = await start(port);
    const createdAgain = await call(second, "POST", "/namespaces", createNamespace, "create-retried");
    expect(createdAgain).toEqual({ ...created, replayed: "true" });
    const rememberedAgain = await call(second, "POST", "/remember", remember, "remember-retried");
    expect(rememberedAgain).toEqual({ ...remembered, replayed: "true" });
    const listed = await call(second, "GET", `/memories?namespace_id=${created.body.data.id}`);
    expect(listed.body.data.map((memory: { id: string }) => memory.id)).toEqual([remembered.body.data.id]);
    const other = await call(second, "POST", "/remember", { ...remember, content: "other" }, "remember-retried");
    expect(other.status).toBe(409);
  },
  240_000,
);
