// The migration that moved documents' originals into document_parts (prisma/migrations/20261129090000_document_parts)
// on a database holding originals from before it: each becomes parts of 512 KiB in order, byte-identical, the
// column goes, and a document deleted afterwards takes its parts with it. On the embedded database, and on
// PostgreSQL in `npm run test:postgres`.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { applyMigrations, migrationsDir, type SqlConnection } from "@/lib/db/migrate";
import { onPostgres, testPostgresUrl } from "../helpers/postgres";

const MIGRATION = "20261129090000_document_parts";
const KiB = 1024;

let conn: SqlConnection;
let close: () => Promise<void>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-parts-migration-"));

/** A folder of the migrations before this one, to which it is added later. */
function migrationsBefore(): string {
  const before = path.join(dir, "migrations");
  fs.mkdirSync(before);
  for (const name of fs.readdirSync(migrationsDir())) {
    if (name >= MIGRATION && name !== "migration_lock.toml") continue;
    fs.cpSync(path.join(migrationsDir(), name), path.join(before, name), { recursive: true });
  }
  return before;
}

beforeAll(async () => {
  if (onPostgres()) {
    const admin = testPostgresUrl()!;
    const name = `memgw_parts_${process.pid}_${randomBytes(4).toString("hex")}`;
    const adminClient = new pg.Client({ connectionString: admin });
    await adminClient.connect();
    await adminClient.query(`CREATE DATABASE ${name}`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    conn = {
      exec: async (sql) => void (await client.query(sql)),
      query: async (sql, params) => (await client.query(sql, params)).rows,
    };
    close = async () => {
      await client.end();
      await adminClient.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await adminClient.end();
    };
  } else {
    const pglite = await PGlite.create({ extensions: { vector } });
    conn = {
      exec: async (sql) => void (await pglite.exec(sql)),
      query: async (sql, params) => (await pglite.query(sql, params)).rows as never,
    };
    close = () => pglite.close();
  }
}, 120_000);

afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("originals stored before it become parts of 512 KiB, byte-identical; the column goes", async () => {
  const before = migrationsBefore();
  await applyMigrations(conn, before);
  await conn.exec(`
    INSERT INTO organizations (id, name, slug, updated_at) VALUES ('org_parts', 'Parts', 'parts', now());
    INSERT INTO namespaces (id, org_id, name, updated_at) VALUES ('ns_parts', 'org_parts', 'parts', now());`);
  const originals = {
    doc_big: randomBytes(1300 * KiB),
    doc_exact: randomBytes(512 * KiB),
    doc_small: Buffer.from("# Notes\nshort"),
  };
  for (const [id, bytes] of Object.entries(originals)) {
    await conn.query(
      `INSERT INTO documents (id, org_id, namespace_id, content_type, byte_size, original, updated_at)
       VALUES ($1, 'org_parts', 'ns_parts', 'text/markdown', $2, $3, now())`,
      [id, bytes.length, bytes],
    );
  }
  await conn.exec(`INSERT INTO documents (id, org_id, namespace_id, source_url, updated_at)
    VALUES ('doc_url', 'org_parts', 'ns_parts', 'https://example.com/', now())`);

  fs.cpSync(path.join(migrationsDir(), MIGRATION), path.join(before, MIGRATION), { recursive: true });
  const result = await applyMigrations(conn, before);
  expect(result.applied).toEqual([MIGRATION]);

  const parts = await conn.query<{ document_id: string; org_id: string; position: number; size: number }>(
    `SELECT document_id, org_id, position, length(bytes) AS size FROM document_parts ORDER BY document_id, position`,
  );
  expect(parts.map((part) => [part.document_id, part.org_id, part.position, Number(part.size)])).toEqual([
    ["doc_big", "org_parts", 0, 512 * KiB],
    ["doc_big", "org_parts", 1, 512 * KiB],
    ["doc_big", "org_parts", 2, 276 * KiB],
    ["doc_exact", "org_parts", 0, 512 * KiB],
    ["doc_small", "org_parts", 0, originals.doc_small.length],
  ]);
  for (const [id, bytes] of Object.entries(originals)) {
    const [joined] = await conn.query<{ bytes: Uint8Array }>(
      `SELECT string_agg(bytes, ''::bytea ORDER BY position) AS bytes FROM document_parts WHERE document_id = $1`,
      [id],
    );
    expect(Buffer.from(joined.bytes).equals(bytes), id).toBe(true);
  }
  const columns = await conn.query(
    `SELECT column_name FROM information_schema.columns WHERE table_name = 'documents' AND column_name = 'original'`,
  );
  expect(columns).toEqual([]);

  // Deleted, by its route or by its namespace's cascade, a document takes its parts with it.
  await conn.exec(`DELETE FROM documents WHERE id = 'doc_big'`);
  await conn.exec(`DELETE FROM namespaces WHERE id = 'ns_parts'`);
  expect(await conn.query(`SELECT document_id FROM document_parts`)).toEqual([]);
}, 120_000);
