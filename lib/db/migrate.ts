import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "@/lib/config";

/** The little a migration needs from a connection: PGlite and a pg client both provide it. */
export interface SqlConnection {
  exec(sql: string): Promise<unknown>;
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
}

// Any constant shared by all instances; it keeps two servers starting at once from migrating together.
const MIGRATION_LOCK_KEY = 72_407_318;

/**
 * Statements run once a migration is applied to a database that already held data, outside any
 * transaction (VACUUM cannot run in one): a migration that changes how rows are stored leaves the rows
 * already written as they were until the table is rewritten.
 */
const REWRITE_AFTER: Record<string, string> = {
  "20261124090000_chunk_rows_inline": "VACUUM (FULL, ANALYZE) memory_chunks",
};

export function migrationsDir(): string {
  return path.join(projectRoot(), "prisma", "migrations");
}

/**
 * Applies `prisma/migrations/<name>/migration.sql` in order, each in its own transaction, and records it
 * in `_prisma_migrations` with Prisma's sha256 checksum, so the Prisma CLI sees the same history. The
 * Prisma CLI cannot apply them to the embedded database, which lives inside the server's process.
 */
export async function applyMigrations(conn: SqlConnection, dir = migrationsDir()): Promise<MigrationResult> {
  // Not traced by the bundler: next.config.js ships prisma/migrations with outputFileTracingIncludes.
  const migrations = fs
    .readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort();

  await conn.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    await conn.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const rows = await conn.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations"
       WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    const applied: string[] = [];
    for (const name of migrations) {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(sql).digest("hex");
      const recorded = done.get(name);
      if (recorded !== undefined) {
        if (recorded !== checksum) {
          throw new Error(`Migration ${name} was changed after it was applied (checksum mismatch).`);
        }
        continue;
      }
      await conn.exec("BEGIN");
      try {
        await conn.exec(sql);
        await conn.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), checksum, name],
        );
        await conn.exec("COMMIT");
      } catch (error) {
        await conn.exec("ROLLBACK");
        throw new Error(`Migration ${name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(name);
    }
    if (done.size > 0) for (const name of applied) if (REWRITE_AFTER[name]) await conn.exec(REWRITE_AFTER[name]);
    return { applied, alreadyApplied: done.size };
  } finally {
    await conn.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
  }
}
