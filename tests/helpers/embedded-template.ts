// One migrated embedded database, kept between test runs under the migrations' fingerprint: a test's data
// directory starts as a copy of it. Copying takes a fraction of a second; creating a PGlite database and
// migrating it takes ~10 s on two busy cores, which every test file and every fresh CLI or server paid.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { projectRoot } from "@/lib/config";
import { applyMigrations } from "@/lib/db/migrate";
import { PGliteThread } from "@/lib/db/pglite-thread";
import { migrationsFingerprint } from "./migrations-fingerprint";

/**
 * The template's directory, made (created and migrated) if no run made it before. Named by the migrations
 * and by PGlite's version: a data directory written by another PGlite may not open in this one.
 */
export async function embeddedTemplate(): Promise<string> {
  const pglitePackage = path.join(projectRoot(), "node_modules/@electric-sql/pglite/package.json");
  const pgliteVersion: string = JSON.parse(fs.readFileSync(pglitePackage, "utf8")).version;
  const dir = path.join(os.tmpdir(), `memgw-template-${migrationsFingerprint()}-pglite-${pgliteVersion}`);
  if (fs.existsSync(dir)) return dir;
  const building = fs.mkdtempSync(`${dir}.building-`);
  const pglite = await PGliteThread.open(building, []);
  try {
    await applyMigrations({
      exec: (sql) => pglite.exec(sql),
      query: async <Row>(sql: string, params?: unknown[]) => (await pglite.query<Row>(sql, params)).rows,
    });
  } finally {
    await pglite.close();
  }
  try {
    // Renamed whole, so that a directory under the final name is always complete.
    fs.renameSync(building, dir);
  } catch (error) {
    if (!fs.existsSync(dir)) throw error;
    fs.rmSync(building, { recursive: true, force: true }); // a run started at the same time made it first
  }
  return dir;
}

/**
 * A new data directory for a test file, server or CLI: a copy of the run's template (tests/helpers/
 * global-setup.ts). Empty in a run on PostgreSQL, where DATABASE_URL names the database.
 */
export function newDataDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const template = inject("embeddedTemplate");
  if (template) fs.cpSync(template, dir, { recursive: true });
  return dir;
}
