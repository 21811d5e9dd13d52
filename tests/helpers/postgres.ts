// A real PostgreSQL server for the tests, named by TEST_DATABASE_URL (a role that may create databases, on
// a server with pgvector). Each test file gets a database of its own, copied from one migrated template
// (a copy takes a fraction of a second; migrating takes seconds), and dropped when the file ends.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, test } from "vitest";
import { applyMigrations, migrationsDir } from "@/lib/db/migrate";

// Any constant: test files starting at once create the template once.
const TEMPLATE_LOCK_KEY = 72_407_319;

export function testPostgresUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

/** Whether this run puts every test file on PostgreSQL (`npm run test:postgres`). */
export function onPostgres(): boolean {
  return process.env.MEMGW_TEST_DATABASE === "postgres";
}

let warned = false;
/**
 * `test`, skipped with a message where no TEST_DATABASE_URL is given: a clone without a PostgreSQL server
 * still passes the suite.
 */
export function postgresTest(name: string, body: () => Promise<void>, timeout?: number) {
  if (!testPostgresUrl() && !warned) {
    warned = true;
    console.warn(
      "[memgw tests] TEST_DATABASE_URL is not set: the tests that need a PostgreSQL server with pgvector are skipped.",
    );
  }
  return test.skipIf(!testPostgresUrl())(name, body, timeout);
}

function urlOfDatabase(name: string): string {
  const url = new URL(testPostgresUrl()!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, task: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

function templateName(): string {
  const hash = createHash("sha256");
  const dir = migrationsDir();
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name, "migration.sql");
    if (fs.existsSync(file)) hash.update(name).update(fs.readFileSync(file));
  }
  return `memgw_template_${hash.digest("hex").slice(0, 12)}`;
}

/** A new, migrated database on the test server; returns its URL. `drop` removes it with its connections. */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const admin = testPostgresUrl();
  if (!admin) throw new Error("TEST_DATABASE_URL is not set: name a PostgreSQL server with pgvector.");
  const template = templateName();
  const name = `memgw_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await withClient(admin, async (client) => {
    await client.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK_KEY]);
    try {
      const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
      if (exists.rowCount === 0) {
        await client.query(`CREATE DATABASE ${template}`);
        await withClient(urlOfDatabase(template), (conn) =>
          applyMigrations({
            exec: (sql) => conn.query(sql),
            query: async (sql, params) => (await conn.query(sql, params)).rows,
          }),
        );
      }
      await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK_KEY]);
    }
  });
  return {
    url: urlOfDatabase(name),
    name,
    drop: () =>
      withClient(admin, async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}

/**
 * For a test file about PostgreSQL: its database on the test server for the whole file (the one setup.ts
 * made, in a run on PostgreSQL), with a normal pool. Without TEST_DATABASE_URL nothing is set up and the
 * file's `postgresTest`s skip.
 */
export function usePostgresDatabase(): void {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  beforeAll(async () => {
    if (!testPostgresUrl() || onPostgres()) return;
    database = await createTestDatabase();
    process.env.DATABASE_URL = database.url;
  });
  afterAll(async () => {
    if (!database) return;
    const { closeDatabase } = await import("@/lib/db");
    await closeDatabase();
    await database.drop();
  });
}
