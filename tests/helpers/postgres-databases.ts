// Databases of their own on a PostgreSQL server, for the tests and the benchmark: each is copied from one
// migrated template (a copy takes a fraction of a second; migrating takes seconds) and dropped after use.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { applyMigrations } from "@/lib/db/migrate";
import { migrationsFingerprint } from "./migrations-fingerprint";

// Any constant: test files starting at once create the template once.
const TEMPLATE_LOCK_KEY = 72_407_319;

export interface ScratchDatabase {
  url: string;
  name: string;
  /** Removes it, ending its connections. */
  drop(): Promise<void>;
}

function urlOfDatabase(admin: string, name: string): string {
  const url = new URL(admin);
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

/** A new, migrated database on the server of `admin` (a role that may create databases). */
export async function createScratchDatabase(admin: string): Promise<ScratchDatabase> {
  const template = `memgw_template_${migrationsFingerprint()}`;
  const name = `memgw_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await withClient(admin, async (client) => {
    await client.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK_KEY]);
    try {
      const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
      if (exists.rowCount === 0) {
        await client.query(`CREATE DATABASE ${template}`);
        await withClient(urlOfDatabase(admin, template), (conn) =>
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
    url: urlOfDatabase(admin, name),
    name,
    drop: () =>
      withClient(admin, async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}
