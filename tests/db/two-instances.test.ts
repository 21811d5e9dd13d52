// Two real servers (`npm start`, the production build) on one PostgreSQL database, as behind a load
// balancer: what one writes or revokes the other sees at once, they share one rate limit, forgets of one
// namespace sent to both at once all succeed, background work runs once, a namespace's vector index is built
// once (an interrupted build is repaired), and one killed with -9 leaves the other serving. Needs
// TEST_DATABASE_URL (skipped without it).
import pg from "pg";
import { afterAll, beforeAll, expect } from "vitest";
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";
import { memgw } from "../helpers/cli";
import { createTestDatabase, postgresTest, testPostgresUrl } from "../helpers/postgres";
import { freePort, startServer, type RunningServer } from "../helpers/server";

process.env.MEMGW_DIST_DIR = ".next-test-server";

const API_KEY = "mgw_twoInstancesBootstrapKey0123456789abcd";
const RATE_LIMIT = 40;
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let sql: pg.Pool;
const servers: RunningServer[] = [];
let a: RunningServer;
let b: RunningServer;

const env = () => ({
  DATABASE_URL: database!.url,
  KEY_PEPPER: "two-instances-pepper",
  ENCRYPTION_KEY: "two-instances-encryption-key",
  NEXTAUTH_SECRET: "two-instances-nextauth-secret",
  API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
  MEMGW_INIT_ORG_NAME: "Twin Inc",
  MEMGW_INIT_USER_EMAIL: "ops@twin.example",
  MEMGW_INIT_USER_PASSWORD: "a long operator password",
  MEMGW_INIT_API_KEY: API_KEY,
});

async function start() {
  const server = await startServer({ ...env(), PORT: String(await freePort()) });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  if (!testPostgresUrl()) return;
  buildIfNeeded({ quiet: true });
  database = await createTestDatabase();
  sql = new pg.Pool({ connectionString: database.url, max: 3 });
  // Both start at once: one migrates and bootstraps, the other waits for it (an advisory lock).
  [a, b] = await Promise.all([start(), start()]);
});

afterAll(async () => {
  for (const server of servers) await server.stop();
  await sql?.end();
  await database?.drop();
});

async function call(server: RunningServer, method: string, route: string, body?: unknown, key = API_KEY) {
  const response = await fetch(`${server.base}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function rows<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
  return (await sql.query(text, params)).rows as Row[];
}

postgresTest("started together, they bootstrap one organization, owner and key between them", async () => {
  expect(
    await rows("SELECT (SELECT count(*) FROM organizations)::int AS orgs, (SELECT count(*) FROM users)::int AS users"),
  ).toEqual([{ orgs: 1, users: 1 }]);
  expect([a, b].filter((server) => /Headless start: .* created/.test(server.output()))).toHaveLength(1);
});

postgresTest("a write on one instance is read on the other at once; a key revoked is refused by both", async () => {
  const ns = await call(a, "POST", "/namespaces", { name: "shared" });
  expect(ns.status).toBe(201);
  const stored = await call(a, "POST", "/remember", {
    namespace_id: ns.body.data.id,
    content: "The night shift hands over at six.",
  });
  expect(stored.status).toBe(201);
  const found = await call(b, "POST", "/recall", { namespace_id: ns.body.data.id, query: "night shift handover" });
  expect(found.status).toBe(200);
  expect(found.body.data[0].memory_id).toBe(stored.body.data.id);
  expect((await rows("SELECT count(*)::int AS n FROM activity_logs WHERE operation = 'recall'"))[0]).toEqual({
    n: 1,
  });

  const [org] = await rows<{ id: string }>("SELECT id FROM organizations");
  const created = await memgw(
    ["key", "create", "--org", org.id, "--name", "short-lived", "--permissions", "NAMESPACE_READ"],
    { DATABASE_URL: database!.url, KEY_PEPPER: "two-instances-pepper" },
  );
  expect(created.code).toBe(0);
  const secret = created.json.secret as string;
  for (const server of [a, b]) expect((await call(server, "GET", "/namespaces", undefined, secret)).status).toBe(200);
  const revoked = await memgw(["key", "revoke", "--id", created.json.id], {
    DATABASE_URL: database!.url,
    KEY_PEPPER: "two-instances-pepper",
  });
  expect(revoked.code).toBe(0);
  for (const server of [a, b]) expect((await call(server, "GET", "/namespaces", undefined, secret)).status).toBe(401);
});

postgresTest("one rate limit for a key across both instances", async () => {
  // A fresh minute window, so that the requests of the test above do not count.
  await sql.query("DELETE FROM rate_limit_counters");
  const statuses = await Promise.all(
    Array.from({ length: RATE_LIMIT + 20 }, (_, i) =>
      call(i % 2 ? a : b, "GET", "/namespaces").then((answer) => answer.status),
    ),
  );
  const allowed = statuses.filter((status) => status === 200).length;
  expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
  // The window may turn within the burst: never more than the limit in one window, never more than two windows.
  expect(allowed).toBeGreaterThanOrEqual(RATE_LIMIT);
  expect(allowed).toBeLessThanOrEqual(2 * RATE_LIMIT);
  if (allowed > RATE_LIMIT) console.warn("[two instances] the rate-limit window turned during the burst");
  // The key is spent for this minute: the tests after this one start a window of their own.
  await sql.query("DELETE FROM rate_limit_counters");
});

postgresTest(
  "forgets of one namespace sent at once through both instances all succeed; its statistics stay exact",
  async () => {
    const ns = (await call(a, "POST", "/namespaces", { name: "busy" })).body.data;
    const ids: string[] = [];
    for (let part = 0; part < 2; part++) {
      const batch = await call(b, "POST", "/remember", {
        namespace_id: ns.id,
        memories: Array.from({ length: 80 }, (_, i) => ({
          content: `Note ${part}-${i}: protein folding in sample ${i * 7} and cell growth on day ${i % 9}.`,
        })),
      });
      expect(batch.status).toBe(201);
      ids.push(...batch.body.data.map((memory: { id: string }) => memory.id));
    }
    // Keys of their own, each within its rate limit, so that all 160 forgets are under way at once.
    const [org] = await rows<{ id: string }>("SELECT id FROM organizations");
    const keys: string[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await memgw(
        [
          "key",
          "create",
          "--org",
          org.id,
          "--name",
          `forgetter ${i}`,
          "--permissions",
          "NAMESPACE_WRITE",
          "--grant",
          ns.id,
        ],
        { DATABASE_URL: database!.url, KEY_PEPPER: "two-instances-pepper" },
      );
      expect(created.code).toBe(0);
      keys.push(created.json.secret as string);
    }
    // Each forget changes the namespace's term statistics: side by side they once deadlocked (a 500).
    const statuses = await Promise.all(
      ids.map((id, i) =>
        call(i % 2 ? a : b, "POST", "/forget", { namespace_id: ns.id, memory_ids: [id] }, keys[i % 4]).then(
          (answer) => answer.status,
        ),
      ),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(
      await rows(
        `SELECT (SELECT count(*)::int FROM memories WHERE namespace_id = $1) AS memories,
              (SELECT count(*)::int FROM memory_chunks WHERE namespace_id = $1) AS chunks,
              (SELECT chunk_count::int FROM namespace_search_stats WHERE namespace_id = $1) AS counted,
              (SELECT count(*)::int FROM namespace_terms WHERE namespace_id = $1) AS terms`,
        [ns.id],
      ),
    ).toEqual([{ memories: 0, chunks: 0, counted: 0, terms: 0 }]);
  },
);

postgresTest("the expiry sweep deletes each expired memory once, whichever instance runs it", async () => {
  const ns = (await call(b, "POST", "/namespaces", { name: "expiring" })).body.data;
  const batch = await call(a, "POST", "/remember", {
    namespace_id: ns.id,
    memories: Array.from({ length: 6 }, (_, i) => ({ content: `Temporary note number ${i}.`, ttl_seconds: 1 })),
  });
  expect(batch.status).toBe(201);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const [left] = await rows<{ n: number }>("SELECT count(*)::int AS n FROM memories WHERE namespace_id = $1", [
      ns.id,
    ]);
    if (left.n === 0) break;
    await new Promise((resume) => setTimeout(resume, 1000));
  }
  const deletedPerLog = [a, b].map((server) =>
    [...server.output().matchAll(/expiry sweep: (\d+) expired memories deleted/g)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    ),
  );
  expect(deletedPerLog[0] + deletedPerLog[1]).toBe(6);
  // At most one sweep queued or running at any time, and none left behind.
  expect(
    await rows(
      "SELECT id FROM jobs WHERE kind = 'memory_expiry_sweep' AND status = 'running' AND locked_until < now()",
    ),
  ).toEqual([]);
});

postgresTest("an interrupted index build (INVALID) is rebuilt by the next write, once", async () => {
  const ns = (await call(a, "POST", "/namespaces", { name: "large" })).body.data;
  expect((await call(a, "POST", "/remember", { namespace_id: ns.id, content: "Seed memory." })).status).toBe(201);
  const index = `memory_chunks_embedding_${ns.id}`;
  // A concurrent build waits for transactions older than it; cancelled while it waits, it leaves the index
  // INVALID, as a server stopped mid-build does.
  const holder = await sql.connect();
  const builder = await sql.connect();
  try {
    await holder.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
    await holder.query("SELECT count(*) FROM memory_chunks");
    const building = builder
      .query(
        `CREATE INDEX CONCURRENTLY "${index}" ON memory_chunks USING hnsw (embedding vector_cosine_ops)
         WHERE namespace_id = '${ns.id}'`,
      )
      .catch((error: Error) => error);
    let cancelled = false;
    for (let attempt = 0; attempt < 50 && !cancelled; attempt += 1) {
      const [row] = await rows<{ cancelled: boolean }>(
        `SELECT bool_or(pg_cancel_backend(pid)) AS cancelled FROM pg_stat_activity
         WHERE query LIKE 'CREATE INDEX CONCURRENTLY%' AND pid <> pg_backend_pid()`,
      );
      cancelled = Boolean(row?.cancelled);
      if (!cancelled) await new Promise((resume) => setTimeout(resume, 100));
    }
    expect(cancelled).toBe(true);
    expect(String(await building)).toMatch(/cancel/);
  } finally {
    await holder.query("ROLLBACK");
    holder.release();
    builder.release();
  }
  const validity = () =>
    rows<{ valid: boolean }>("SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)", [
      `"${index}"`,
    ]);
  expect(await validity()).toEqual([{ valid: false }]);
  // Past the exact-scan size (the statistics say so), the next write on either instance repairs it.
  await sql.query("UPDATE namespace_search_stats SET chunk_count = 10000 WHERE namespace_id = $1", [ns.id]);
  const writes = await Promise.all(
    [a, b].map((server, i) =>
      call(server, "POST", "/remember", { namespace_id: ns.id, content: `A write on instance ${i}.` }),
    ),
  );
  expect(writes.map((write) => write.status)).toEqual([201, 201]);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && (await validity())[0]?.valid !== true) {
    await new Promise((resume) => setTimeout(resume, 250));
  }
  expect(await validity()).toEqual([{ valid: true }]);
  expect(
    await rows("SELECT indexname FROM pg_indexes WHERE tablename = 'memory_chunks' AND indexname LIKE $1", [
      `%${ns.id}%`,
    ]),
  ).toEqual([{ indexname: index }]);
});

postgresTest("one instance killed with -9: the other goes on serving, reads and writes", async () => {
  const ns = (await call(a, "POST", "/namespaces", { name: "survivor" })).body.data;
  process.kill(a.pid, "SIGKILL");
  await a.exited;
  for (let i = 0; i < 5; i += 1) {
    expect(
      (await call(b, "POST", "/remember", { namespace_id: ns.id, content: `Written after the crash ${i}.` })).status,
    ).toBe(201);
  }
  const found = await call(b, "POST", "/recall", { namespace_id: ns.id, query: "written after the crash", top_k: 10 });
  expect(found.body.data).toHaveLength(5);
  // The killed one starts again on the same database and sees everything.
  const restarted = await start();
  const listed = await call(restarted, "POST", "/recall", { namespace_id: ns.id, query: "crash", top_k: 10 });
  expect(listed.body.data).toHaveLength(5);
});
