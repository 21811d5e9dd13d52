// Behind a pooler in transaction mode (Debian's PgBouncer 1.18, which keeps no named statements there): with
// DATABASE_POOLER=transaction the gateway names none and keeps nothing per connection, and migrates
// through DATABASE_DIRECT_URL. Needs TEST_DATABASE_URL and a `pgbouncer` binary (PGBOUNCER_BIN or on PATH);
// skipped without them.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { closeDatabase, getDatabase, queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { api } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";
import { createTestDatabase, testPostgresUrl } from "../helpers/postgres";
import { freePort } from "../helpers/server";

const pgbouncerBin =
  process.env.PGBOUNCER_BIN ||
  ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((candidate) => fs.existsSync(candidate));
const runs = Boolean(testPostgresUrl() && pgbouncerBin);
if (!runs)
  console.warn("[memgw tests] TEST_DATABASE_URL or a pgbouncer binary is missing: the pooler tests are skipped.");
const pooledTest = test.skipIf(!runs);

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let bouncer: ChildProcess | undefined;
let dir: string | undefined;

beforeAll(async () => {
  if (!runs) return;
  database = await createTestDatabase();
  const direct = new URL(database.url);
  const port = await freePort();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-pgbouncer-"));
  fs.writeFileSync(path.join(dir, "users.txt"), `"${direct.username}" ""\n`);
  fs.writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `${database.name} = host=${direct.hostname} port=${direct.port || 5432} dbname=${database.name}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      // Fewer server connections than the gateway's pool: statements of one client connection are spread.
      "default_pool_size = 2",
      "max_client_conn = 50",
      "ignore_startup_parameters = extra_float_digits",
    ].join("\n"),
  );
  // PgBouncer refuses to run as root: as root (CI), it runs as the `postgres` user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    fs.chmodSync(dir, 0o755);
    spawnSync("chmod", ["a+r", path.join(dir, "users.txt"), path.join(dir, "pgbouncer.ini")]);
  }
  bouncer = spawn(pgbouncerBin!, [...(asRoot ? ["-u", "postgres"] : []), path.join(dir, "pgbouncer.ini")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  bouncer.stdout!.on("data", (chunk) => (output += chunk));
  bouncer.stderr!.on("data", (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pgbouncer did not start:\n${output}`)), 10_000);
    const check = () => {
      if (/process up/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    bouncer!.stdout!.on("data", check);
    bouncer!.stderr!.on("data", check);
    bouncer!.once("exit", () => reject(new Error(`pgbouncer exited:\n${output}`)));
  });
  const pooled = new URL(database.url);
  pooled.port = String(port);
  process.env.DATABASE_URL = pooled.toString();
  process.env.DATABASE_POOLER = "transaction";
  process.env.DATABASE_DIRECT_URL = database.url;
  process.env.DATABASE_POOL_SIZE = "8";
});

afterAll(async () => {
  await closeDatabase();
  bouncer?.kill("SIGTERM");
  await database?.drop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.DATABASE_POOLER;
  delete process.env.DATABASE_DIRECT_URL;
});

pooledTest("through PgBouncer in transaction mode: remember, recall and forget, many at once", async () => {
  expect((await getDatabase()).kind).toBe("postgres");
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const stored = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      api("POST", "/remember", { key, body: { namespace_id: ns.id, content: `Pooled fact number ${i} about tides.` } }),
    ),
  );
  expect(stored.map((answer) => answer.status)).toEqual(Array(12).fill(201));
  // Recall's statements are the ones kept parsed elsewhere: here each is sent unnamed, whatever connection runs it.
  const recalls = await Promise.all(
    Array.from({ length: 24 }, (_, i) =>
      api("POST", "/recall", { key, body: { namespace_id: ns.id, query: `fact ${i % 12} tides`, top_k: 3 } }),
    ),
  );
  expect(recalls.map((answer) => answer.status)).toEqual(Array(24).fill(200));
  expect(recalls.every((answer) => answer.body.data.length === 3)).toBe(true);
  const forgot = await api("POST", "/forget", { key, body: { namespace_id: ns.id, all: true } });
  expect(forgot.body.data.deleted).toBe(12);
  // The search settings are the database's defaults, as a session through the pooler sees them.
  const [setting] = await queryRows<{ value: string }>(
    Prisma.sql`SELECT current_setting('hnsw.iterative_scan') AS value`,
  );
  expect(setting.value).toBe("relaxed_order");
});

pooledTest("DATABASE_POOLER=transaction without DATABASE_DIRECT_URL is refused with a clear message", async () => {
  await closeDatabase();
  const direct = process.env.DATABASE_DIRECT_URL;
  delete process.env.DATABASE_DIRECT_URL;
  try {
    await expect(getDatabase()).rejects.toThrow(/DATABASE_DIRECT_URL/);
  } finally {
    process.env.DATABASE_DIRECT_URL = direct;
  }
});

// Needs no server: the setting is checked before any connection is made.
test("a DATABASE_POOLER other than none or transaction is refused, naming the two it accepts", async () => {
  await closeDatabase();
  vi.stubEnv("DATABASE_URL", "postgres://nobody@127.0.0.1:1/nothing");
  vi.stubEnv("DATABASE_POOLER", "session");
  try {
    await expect(getDatabase()).rejects.toThrow('DATABASE_POOLER must be "none" or "transaction", not "session".');
  } finally {
    vi.unstubAllEnvs();
  }
});
