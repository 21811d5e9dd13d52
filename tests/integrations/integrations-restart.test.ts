// A sync killed half-way (kill -9 of the server) resumes when the server starts again: every document ends
// up stored exactly once, none lost, none duplicated. The real server (npm start) on the embedded database,
// its job worker, and the fake GitHub on loopback, slowed down so that the kill lands mid-sync.
import fs from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";
import { startGithubFake } from "../helpers/providers/github";
import { freePort, startServer, type RunningServer } from "../helpers/server";
import { onPostgres } from "../helpers/postgres";
import { newDataDir } from "../helpers/embedded-template";

// The same build directory as tests/startup/server.test.ts (builds take turns), never a developer's .next.
process.env.MEMGW_DIST_DIR = ".next-test-server";

const API_KEY = "mgw_restartSyncBootstrapKey0123456789abc";
const auth = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };

let fake: Awaited<ReturnType<typeof startGithubFake>>;
let dataDir: string;
const servers: RunningServer[] = [];

beforeAll(async () => {
  buildIfNeeded({ quiet: true });
  fake = await startGithubFake();
  dataDir = newDataDir("memgw-sync-restart-");
});

afterAll(async () => {
  for (const server of servers) await server.stop();
  await fake?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(port: number) {
  const server = await startServer({
    PORT: String(port),
    DATA_DIR: dataDir,
    KEY_PEPPER: "restart-pepper",
    ENCRYPTION_KEY: "restart-encryption-key",
    MEMGW_INIT_ORG_NAME: "Restart Inc",
    MEMGW_INIT_USER_EMAIL: "ops@restart.example",
    MEMGW_INIT_USER_PASSWORD: "a long operator password",
    MEMGW_INIT_API_KEY: API_KEY,
    GITHUB_CLIENT_ID: fake.clientId,
    GITHUB_CLIENT_SECRET: fake.clientSecret,
    GITHUB_AUTH_URL: fake.endpoints.authUrl,
    GITHUB_TOKEN_URL: fake.endpoints.tokenUrl,
    GITHUB_API_URL: fake.endpoints.apiUrl,
  });
  servers.push(server);
  return server;
}

async function call(server: RunningServer, method: string, route: string, body?: unknown) {
  const response = await fetch(`${server.base}/api/v1${route}`, {
    method,
    headers: auth,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function memoryUrls(server: RunningServer, namespaceId: string): Promise<string[]> {
  const page = await call(server, "GET", `/memories?namespace_id=${namespaceId}&page_size=100`);
  return page.body.data.map((memory: { metadata: { source_url: string } }) => memory.metadata.source_url);
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test.runIf(process.platform === "linux")(
  "a sync killed with -9 half-way resumes after the restart: every document once",
  async () => {
    const port = await freePort();
    const first = await start(port);
    const namespace = await call(first, "POST", "/namespaces", { name: "engineering" });
    expect(namespace.status).toBe(201);
    const namespaceId = namespace.body.data.id;

    const started = await call(first, "POST", "/integrations/connections", {
      provider: "github",
      namespace_id: namespaceId,
      options: fake.content.connectOptions,
    });
    expect(started.status).toBe(201);
    const { redirect } = await fake.approve(started.body.data.authorization_url);
    // Every content request now takes a while: the first sync is still under way when the server is killed.
    fake.slowDown(400);
    const completed = await call(
      first,
      "POST",
      `/integrations/connections/${started.body.data.connection.id}/complete`,
      {
        code: redirect.searchParams.get("code"),
        state: redirect.searchParams.get("state"),
      },
    );
    expect(completed.status).toBe(200);
    const connectionId = completed.body.data.id;
    const expected = fake.content
      .documents()
      .map((document) => document.url)
      .sort();

    const partial = await until("some documents stored", async () => {
      const urls = await memoryUrls(first, namespaceId);
      return urls.length > 0 ? urls : undefined;
    });
    expect(partial.length).toBeLessThan(expected.length);
    process.kill(first.pid, "SIGKILL");
    await first.exited;

    fake.slowDown(0);
    const second = await start(port);
    // The embedded database's new owner resumes it at once; on PostgreSQL, which other instances may share,
    // any instance takes it when the dead one's lease ends (15 s).
    if (!onPostgres()) expect(second.output()).toMatch(/Background jobs: 1 interrupted by the last stop, resumed now/);
    const done = await until("the resumed sync to finish", async () => {
      const connection = await call(second, "GET", `/integrations/connections/${connectionId}`);
      return connection.body.data.status === "active" && connection.body.data.last_sync_at
        ? connection.body.data
        : undefined;
    });
    expect(done.documents_synced).toBe(expected.length);
    const urls = await memoryUrls(second, namespaceId);
    expect(urls.sort()).toEqual(expected);
  },
  240_000,
);
