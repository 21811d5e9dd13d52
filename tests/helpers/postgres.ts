// A real PostgreSQL server for the tests, named by TEST_DATABASE_URL (a role that may create databases, on
// a server with pgvector). Each test file gets a database of its own (tests/helpers/postgres-databases.ts).
import { afterAll, beforeAll, test } from "vitest";
import { createScratchDatabase, type ScratchDatabase } from "./postgres-databases";

export function testPostgresUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

/** A new, migrated database on the test server; returns its URL. `drop` removes it with its connections. */
export async function createTestDatabase(): Promise<ScratchDatabase> {
  const admin = testPostgresUrl();
  if (!admin) throw new Error("TEST_DATABASE_URL is not set: name a PostgreSQL server with pgvector.");
  return createScratchDatabase(admin);
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

/**
 * For a test file about PostgreSQL: its database on the test server for the whole file (the one setup.ts
 * made, in a run on PostgreSQL), with a normal pool. Without TEST_DATABASE_URL nothing is set up and the
 * file's `postgresTest`s skip.
 */
export function usePostgresDatabase(): void {
  let database: ScratchDatabase | undefined;
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
