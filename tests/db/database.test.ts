import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { vector } from "@electric-sql/pglite-pgvector";
import { describe, expect, test, vi } from "vitest";
import { dataDir } from "@/lib/config";
import {
  aheadOfWaitingTransactions,
  asBulkTransfer,
  closeDatabase,
  db,
  getDatabase,
  onBackgroundConnections,
  queryRows,
} from "@/lib/db";
import { lockPath } from "@/lib/db/lock";
import { expectBytesRoundTrip, expectParametersRoundTrip } from "../helpers/query-rows";
import { applyMigrations, migrationsDir, type SqlConnection } from "@/lib/db/migrate";
import { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { onPostgres } from "../helpers/postgres";

async function emptyDatabase() {
  const pglite = await PGlite.create({ extensions: { vector } });
  const conn: SqlConnection = {
    exec: (sql) => pglite.exec(sql),
    query: async <Row>(sql: string, params?: unknown[]) => (await pglite.query<Row>(sql, params)).rows,
  };
  return { pglite, conn };
}

function copyMigrations() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-migrations-"));
  fs.cpSync(migrationsDir(), dir, { recursive: true });
  return dir;
}

/** A copy of the migrations up to (not including) `name`; `releaseLater` adds the rest back, as an upgrade. */
function migrationsBefore(name: string) {
  const dir = copyMigrations();
  const later = fs.readdirSync(dir).filter((entry) => entry >= name && entry !== "migration_lock.toml");
  const held = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-migrations-held-"));
  for (const entry of later) fs.renameSync(path.join(dir, entry), path.join(held, entry));
  return {
    dir,
    later,
    releaseLater: () => later.forEach((entry) => fs.renameSync(path.join(held, entry), path.join(dir, entry))),
  };
}

describe("migrations", () => {
  test("apply to an empty database, recording Prisma's checksums, and are a no-op the second time", async () => {
    const { pglite, conn } = await emptyDatabase();
    const names = fs
      .readdirSync(migrationsDir())
      .filter((n) => fs.statSync(path.join(migrationsDir(), n)).isDirectory())
      .sort();
    const first = await applyMigrations(conn);
    expect(first).toEqual({ applied: names, alreadyApplied: 0 });
    const tables = (
      await conn.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    ).map((r) => r.tablename);
    expect(tables).toEqual(
      expect.arrayContaining([
        "organizations",
        "users",
        "memberships",
        "api_keys",
        "namespaces",
        "namespace_grants",
        "audit_logs",
        "_prisma_migrations",
      ]),
    );
    const recorded = await conn.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(recorded).toEqual(
      names.map((name) => ({
        migration_name: name,
        checksum: createHash("sha256")
          .update(fs.readFileSync(path.join(migrationsDir(), name, "migration.sql")))
          .digest("hex"),
      })),
    );

    const second = await applyMigrations(conn);
    expect(second).toEqual({ applied: [], alreadyApplied: names.length });
    expect(await conn.query(`SELECT count(*)::int AS n FROM "_prisma_migrations"`)).toEqual([{ n: names.length }]);
    await pglite.close();
  });

  test("refuse to run when an applied migration was edited", async () => {
    const { pglite, conn } = await emptyDatabase();
    const dir = copyMigrations();
    await applyMigrations(conn, dir);
    const [first] = fs
      .readdirSync(dir)
      .filter((n) => n !== "migration_lock.toml")
      .sort();
    fs.appendFileSync(path.join(dir, first, "migration.sql"), "\n-- edited\n");
    await expect(applyMigrations(conn, dir)).rejects.toThrow(/changed after it was applied/);
    await pglite.close();
  });

  test("a failing migration rolls back entirely and is not recorded", async () => {
    const { pglite, conn } = await emptyDatabase();
    const dir = copyMigrations();
    fs.mkdirSync(path.join(dir, "29990101000000_broken"));
    fs.writeFileSync(
      path.join(dir, "29990101000000_broken", "migration.sql"),
      "CREATE TABLE half_done (id int);\nSELECT * FROM no_such_table;\n",
    );
    await expect(applyMigrations(conn, dir)).rejects.toThrow(/29990101000000_broken failed/);
    expect(await conn.query(`SELECT to_regclass('half_done') AS t`)).toEqual([{ t: null }]);
    expect(
      await conn.query(
        `SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE migration_name = '29990101000000_broken'`,
      ),
    ).toEqual([{ n: 0 }]);
    await pglite.close();
  });

  test("chunk rows stay whole; rows written before that migration are rewritten once it is applied", async () => {
    const { pglite, conn } = await emptyDatabase();
    const { dir, later, releaseLater } = migrationsBefore("20261124090000_chunk_rows_inline");
    await applyMigrations(conn, dir);
    const insertChunk = async (id: string) =>
      conn.exec(`
        INSERT INTO organizations (id, name, slug, updated_at) VALUES ('org_${id}', 'Org', 'org-${id}', now());
        INSERT INTO namespaces (id, org_id, name, updated_at) VALUES ('ns_${id}', 'org_${id}', 'ns', now());
        INSERT INTO memories (id, org_id, namespace_id, content, chunk_count, updated_at)
          VALUES ('mem_${id}', 'org_${id}', 'ns_${id}', 'a short memory', 1, now());
        INSERT INTO memory_chunks (id, org_id, namespace_id, memory_id, position, content, embedding,
                                   embedding_model, term_count)
          VALUES ('chk_${id}_0000000000000000', 'org_${id}', 'ns_${id}', 'mem_${id}', 0, 'a short memory',
                  array_fill(0.04, ARRAY[512])::vector, 'use-lite-512', 3);`);
    const toastedValues = async () => {
      const [{ toast }] = await conn.query<{ toast: string }>(
        `SELECT reltoastrelid::regclass::text AS toast FROM pg_class WHERE relname = 'memory_chunks'`,
      );
      return (await conn.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${toast}`))[0].n;
    };
    await insertChunk("before");
    // Before: the embedding alone passes the TOAST threshold, and the ids were moved out of the row.
    expect(await toastedValues()).toBeGreaterThan(0);
    releaseLater();
    const result = await applyMigrations(conn, dir);
    expect(result.applied).toEqual(later);
    expect(await toastedValues()).toBe(0);
    await insertChunk("after");
    expect(await toastedValues()).toBe(0);
    expect(await conn.query(`SELECT id, namespace_id, content FROM memory_chunks ORDER BY id`)).toEqual([
      { id: "chk_after_0000000000000000", namespace_id: "ns_after", content: "a short memory" },
      { id: "chk_before_0000000000000000", namespace_id: "ns_before", content: "a short memory" },
    ]);
    await pglite.close();
  });

  test("upgrading gives each namespace of over 500 chunks its own vector index, not a shared one", async () => {
    const { pglite, conn } = await emptyDatabase();
    const { dir, releaseLater } = migrationsBefore("20261124100000_namespace_vector_indexes");
    await applyMigrations(conn, dir);
    const namespaceWith = async (id: string, chunks: number) =>
      conn.exec(`
        INSERT INTO organizations (id, name, slug, updated_at) VALUES ('org_${id}', 'Org', 'org-${id}', now());
        INSERT INTO namespaces (id, org_id, name, updated_at) VALUES ('${id}', 'org_${id}', 'ns', now());
        INSERT INTO memories (id, org_id, namespace_id, content, chunk_count, updated_at)
          VALUES ('mem_${id}', 'org_${id}', '${id}', 'memory', ${chunks}, now());
        INSERT INTO memory_chunks (id, org_id, namespace_id, memory_id, position, content, embedding,
                                   embedding_model, term_count)
          SELECT 'chk_${id}_' || i, 'org_${id}', '${id}', 'mem_${id}', i, 'chunk ' || i,
                 array_fill((i % 7 + 1)::float4, ARRAY[512])::vector, 'use-lite-512', 2
          FROM generate_series(1, ${chunks}) AS i;
        INSERT INTO namespace_search_stats (namespace_id, chunk_count, total_terms) VALUES ('${id}', ${chunks}, 0);`);
    await namespaceWith("ns_Large", 1_501);
    await namespaceWith("ns_Medium", 501);
    await namespaceWith("ns_Small", 500);
    releaseLater();
    await applyMigrations(conn, dir);
    const indexes = await conn.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'memory_chunks' AND indexdef LIKE '%USING hnsw%'`,
    );
    expect(indexes.map((index) => index.indexname).sort()).toEqual([
      "memory_chunks_embedding_ns_Large",
      "memory_chunks_embedding_ns_Medium",
    ]);
    await pglite.close();
  });

  test("the migrated database has every column of every model in prisma/schema.prisma", async () => {
    const prisma = await db();
    // findFirst selects every scalar field of the model: a column missing from the migrations fails here.
    for (const model of [
      "organization",
      "user",
      "membership",
      "apiKey",
      "namespace",
      "namespaceGrant",
      "auditLog",
    ] as const) {
      const row = await (prisma[model] as unknown as { findFirst(): Promise<unknown> }).findFirst();
      expect(row === null || typeof row === "object").toBe(true);
    }
    expect((await getDatabase()).kind).toBe(onPostgres() ? "postgres" : "pglite");
  });
});

describe("the shared PGlite session", () => {
  test("serializes concurrent transactions: a rollback loses only its own writes", async () => {
    const prisma = await db();
    const tag = newId("org");
    const work = Array.from({ length: 12 }, (_, i) => {
      const id = `${tag}-${i}`;
      if (i % 3 === 2) {
        // A plain write, outside any transaction, issued while transactions are open.
        return prisma.organization.create({ data: { id, name: id, slug: id } }).then(() => "plain");
      }
      return prisma
        .$transaction(async (tx) => {
          await tx.organization.create({ data: { id, name: id, slug: id } });
          // Hand the event loop to the other writes already issued, while this transaction is open.
          await new Promise((resolve) => setImmediate(resolve));
          await tx.organization.update({ where: { id }, data: { name: `${id}-updated` } });
          if (i % 3 === 1) throw new Error("roll back");
          return "committed";
        })
        .catch((error: Error) => error.message);
    });
    const outcomes = await Promise.all(work);
    expect(outcomes.filter((o) => o === "roll back")).toHaveLength(4);
    const rows = await prisma.organization.findMany({ where: { id: { startsWith: tag } }, orderBy: { id: "asc" } });
    const kept = rows.map((r) => Number(r.id.split("-").pop())).sort((a, b) => a - b);
    expect(kept).toEqual([0, 2, 3, 5, 6, 8, 9, 11]);
    for (const row of rows) {
      const i = Number(row.id.split("-").pop());
      expect(row.name).toBe(i % 3 === 0 ? `${row.id}-updated` : row.id);
    }
  });
});

describe.skipIf(onPostgres())("the embedded database's one session", () => {
  test("a statement sent aheadOfWaitingTransactions runs after the running transaction, before waiting", async () => {
    const prisma = await db();
    const order: string[] = [];
    const pause = () => new Promise((resolve) => setTimeout(resolve, 30));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const running = prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1`;
      order.push("running");
      await held;
    });
    await vi.waitFor(() => expect(order).toEqual(["running"]), { timeout: 10_000 });
    // Each reaches the session while the first transaction holds it, in this order.
    const waiting = prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1`;
      order.push("waiting transaction");
    });
    await pause();
    const plain = prisma.$queryRaw`SELECT 1`.then(() => order.push("plain statement"));
    await pause();
    const ahead = aheadOfWaitingTransactions(() => queryRows(Prisma.sql`SELECT 1`)).then(() => order.push("ahead"));
    await pause();
    expect(order).toEqual(["running"]);
    release();
    await Promise.all([running, waiting, plain, ahead]);
    expect(order).toEqual(["running", "ahead", "waiting transaction", "plain statement"]);
  });

  test.each([
    ["a background statement", onBackgroundConnections],
    ["a transfer's statement", asBulkTransfer],
  ])("%s lets what comes after it go first, until it has waited 100 ms", async (_, yieldingWork) => {
    const prisma = await db();
    const order: string[] = [];
    const holdSession = async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding = false;
      const running = prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        holding = true;
        await held;
      });
      await vi.waitFor(() => expect(holding).toBe(true), { timeout: 10_000 });
      return { release, running };
    };
    const background = (label: string) =>
      yieldingWork(() => queryRows(Prisma.sql`SELECT 1`)).then(() => order.push(label));
    const transaction = (label: string) =>
      prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        order.push(label);
      });

    // Sent first (in the session's queue by the next turn of the event loop), it runs after the transaction
    // and the statement sent within its 100 ms.
    let session = await holdSession();
    const yielding = background("background");
    await new Promise((resolve) => setImmediate(resolve));
    const waiting = [transaction("transaction"), queryRows(Prisma.sql`SELECT 1`).then(() => order.push("statement"))];
    session.release();
    await Promise.all([session.running, yielding, ...waiting]);
    expect(order.slice(0, 2).sort()).toEqual(["statement", "transaction"]);
    expect(order[2]).toBe("background");

    // Past its 100 ms it lets nothing more go first.
    order.length = 0;
    session = await holdSession();
    const waited = background("background");
    await new Promise((resolve) => setTimeout(resolve, 150));
    const later = transaction("transaction");
    session.release();
    await Promise.all([session.running, waited, later]);
    expect(order).toEqual(["background", "transaction"]);
  });
});

// On PostgreSQL, tests/db/postgres.test.ts checks the same of node-postgres.
describe.skipIf(onPostgres())("statements sent straight to PGlite (queryRows)", () => {
  test("wait for a transaction in progress, and see what it committed, not what it rolled back", async () => {
    const prisma = await db();
    const [committed, rolledBack] = [newId("org"), newId("org")];
    const count = (id: string) =>
      queryRows<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM organizations WHERE id = ${id}`);
    let readDuring: Promise<{ n: number }[]> | undefined;
    await prisma.$transaction(async (tx) => {
      await tx.organization.create({ data: { id: committed, name: "x", slug: committed } });
      readDuring = count(committed);
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(await readDuring).toEqual([{ n: 1 }]);
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.organization.create({ data: { id: rolledBack, name: "x", slug: rolledBack } });
        readDuring = count(rolledBack);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await readDuring).toEqual([{ n: 0 }]);
  });

  test("get their parameters as the statement types them, and fail alone", async () => {
    await expectParametersRoundTrip();
    await expectBytesRoundTrip();
    // The statement is kept parsed: refused values leave it usable; a text that does not parse is not kept.
    await expect(queryRows(Prisma.sql`SELECT ${"not a number"}::int AS n`)).rejects.toThrow(/invalid input syntax/);
    expect(await queryRows(Prisma.sql`SELECT ${"41"}::int AS n`)).toEqual([{ n: 41 }]);
    for (let i = 0; i < 2; i++) await expect(queryRows(Prisma.sql`SELEC 1`)).rejects.toThrow(/syntax error at or near/);
    expect(await queryRows(Prisma.sql`SELECT 1 AS n`)).toEqual([{ n: 1 }]);
  });

  test("keep at most 100 statements parsed, and parse again one they let go", async () => {
    for (let i = 0; i < 130; i++)
      expect(await queryRows(Prisma.sql`SELECT ${Prisma.raw(String(i))}::int AS n`)).toEqual([{ n: i }]);
    const [kept] = await queryRows<{ n: number }>(
      Prisma.sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name ~ '^memgw_kept_[0-9]+$'`,
    );
    expect(kept.n).toBeLessThanOrEqual(100);
    expect(await queryRows(Prisma.sql`SELECT 0::int AS n`)).toEqual([{ n: 0 }]);
  });

  test("keep the statements in use while others come and go: the least recently used is let go", async () => {
    const marker = `in-use-${newId("org")}`;
    const inUse = Prisma.sql`SELECT ${1}::int AS n /* ${Prisma.raw(marker)} */`;
    let runs = 0;
    for (let i = 0; i < 250; i++) {
      if (i % 20 === 0) {
        expect(await queryRows(inUse)).toEqual([{ n: 1 }]);
        runs++;
      }
      await queryRows(Prisma.sql`SELECT ${Prisma.raw(String(i))}::int AS n /* ${Prisma.raw(marker)}-passing */`);
    }
    // Parsed once and never closed: every run of it is counted on the one prepared statement.
    const kept = await queryRows<{ plans: number }>(
      Prisma.sql`SELECT (generic_plans + custom_plans)::int AS plans FROM pg_prepared_statements
       WHERE statement LIKE ${`%${marker} */`}`,
    );
    expect(kept).toEqual([{ plans: runs }]);
  });
});

describe.skipIf(onPostgres())("Prisma's statements on the embedded database", () => {
  /** The statements the database holds parsed whose text contains `marker`. */
  const keptWith = async (marker: string) =>
    (
      await queryRows<{ n: number }>(
        Prisma.sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE ${`%${marker}%`}`,
      )
    )[0].n;

  test("are parsed once per text: in transactions and out, after a rollback, and when sent at once", async () => {
    const prisma = await db();
    const marker = `kept-${newId("org")}`;
    const plusOne = (value: number) => Prisma.sql`SELECT ${value}::int + 1 AS n /* ${Prisma.raw(marker)} */`;
    for (let i = 0; i < 3; i++) expect(await prisma.$queryRaw(plusOne(i))).toEqual([{ n: i + 1 }]);
    // One parsed first in a transaction that rolls back is kept as well: a session's statements outlive it.
    const minusOne = (value: number) => Prisma.sql`SELECT ${value}::int - 1 AS n /* ${Prisma.raw(marker)}-tx */`;
    await expect(
      prisma.$transaction(async (tx) => {
        expect(await tx.$queryRaw(plusOne(10))).toEqual([{ n: 11 }]);
        expect(await tx.$queryRaw(minusOne(10))).toEqual([{ n: 9 }]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await prisma.$queryRaw(plusOne(20))).toEqual([{ n: 21 }]);
    expect(await prisma.$queryRaw(minusOne(20))).toEqual([{ n: 19 }]);
    expect(await keptWith(`${marker} */`)).toBe(1);
    expect(await keptWith(`${marker}-tx */`)).toBe(1);

    const twice = (value: number) => Prisma.sql`SELECT ${value}::int * 2 AS n /* ${Prisma.raw(marker)}-at-once */`;
    const answers = await Promise.all([1, 2, 3, 4, 5].map((i) => prisma.$queryRaw(twice(i))));
    expect(answers).toEqual([1, 2, 3, 4, 5].map((i) => [{ n: i * 2 }]));
    expect(await keptWith(`${marker}-at-once`)).toBe(1);
  });

  test("a text that does not parse is not kept; refused values leave the kept statement usable", async () => {
    const prisma = await db();
    const marker = `refused-${newId("org")}`;
    for (let i = 0; i < 2; i++)
      await expect(prisma.$queryRaw(Prisma.sql`SELEC 1 /* ${Prisma.raw(marker)} */`)).rejects.toThrow(/syntax error/);
    expect(await keptWith(marker)).toBe(0);
    const asInt = (value: string) => Prisma.sql`SELECT ${value}::text::int AS n /* ${Prisma.raw(marker)}-value */`;
    await expect(prisma.$queryRaw(asInt("not a number"))).rejects.toThrow(/invalid input syntax/);
    expect(await prisma.$queryRaw(asInt("41"))).toEqual([{ n: 41 }]);
    expect(await keptWith(`${marker}-value`)).toBe(1);
  });

  test("one whose table changed under it fails once, then is parsed again", async () => {
    const prisma = await db();
    const table = Prisma.raw(`stale_${newId("org").replace(/\W/g, "_")}`);
    await prisma.$executeRaw(Prisma.sql`CREATE TABLE ${table} (a int)`);
    await prisma.$executeRaw(Prisma.sql`INSERT INTO ${table} VALUES (1)`);
    const everything = Prisma.sql`SELECT * FROM ${table}`;
    expect(await prisma.$queryRaw(everything)).toEqual([{ a: 1 }]);
    await prisma.$executeRaw(Prisma.sql`ALTER TABLE ${table} ADD COLUMN b int DEFAULT 2`);
    await expect(prisma.$queryRaw(everything)).rejects.toThrow(/cached plan must not change result type/);
    expect(await prisma.$queryRaw(everything)).toEqual([{ a: 1, b: 2 }]);
    await prisma.$executeRaw(Prisma.sql`DROP TABLE ${table}`);
  });

  test("at most 300 are kept, the least recently used let go, and one let go is parsed again", async () => {
    const prisma = await db();
    const marker = `many-${newId("org")}`;
    const plus = (i: number, value: number) =>
      Prisma.sql`SELECT ${value}::int + ${Prisma.raw(String(i))} AS n /* ${Prisma.raw(marker)} */`;
    for (let i = 0; i < 320; i++) expect(await prisma.$queryRaw(plus(i, 1))).toEqual([{ n: i + 1 }]);
    expect(await keptWith(marker)).toBeLessThanOrEqual(300);
    const [all] = await queryRows<{ n: number }>(
      Prisma.sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name ~ '^memgw_[0-9]+$'`,
    );
    expect(all.n).toBeLessThanOrEqual(300);
    expect(await prisma.$queryRaw(plus(0, 2))).toEqual([{ n: 2 }]);
  });
});

describe.skipIf(onPostgres())("one process per data directory", () => {
  const script = path.join(process.cwd(), "tests/helpers/open-database.ts");
  const openElsewhere = (dir: string) =>
    JSON.parse(
      execFileSync(process.execPath, ["--import", "tsx", script], {
        env: { ...process.env, DATA_DIR: dir, MEMGW_PROCESS_ROLE: "second process" },
        encoding: "utf8",
      })
        .trim()
        .split("\n")
        .pop()!,
    );

  test("a second process gets a clear error instead of opening a data directory in use", async () => {
    await getDatabase();
    const result = openElsewhere(dataDir());
    expect(result.opened).toBe(false);
    expect(result.name).toBe("DataDirInUseError");
    expect(result.message).toContain(`in use by process ${process.pid}`);
    // and this process still owns and uses it
    const prisma = await db();
    const id = newId("org");
    await prisma.organization.create({ data: { id, name: id, slug: id } });
    expect(await prisma.organization.findUnique({ where: { id } })).toMatchObject({ id, name: id });
  });

  test("a lock left by a process that died does not block the next start", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-stale-"));
    fs.writeFileSync(
      lockPath(dir),
      JSON.stringify({ pid: 2 ** 22 + 12345, role: "server", startedAt: new Date().toISOString() }),
    );
    expect(openElsewhere(dir)).toEqual({ opened: true });
    expect(fs.existsSync(lockPath(dir))).toBe(false);
  });
});

describe.runIf(onPostgres())("connections the PostgreSQL server ends", () => {
  test("an idle connection ended by the server (a restart, a proxy's timeout) does not end the process", async () => {
    // Reopened, with only statements sent straight to the pool (recall's): no Prisma query has run on it yet.
    await closeDatabase();
    const statement = Prisma.sql`SELECT 1 AS one FROM pg_sleep(0.05)`;
    await Promise.all([queryRows(statement), queryRows(statement)]);
    // The pool now holds idle connections; the server ends every one of them.
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const ended = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    await admin.end();
    expect(ended.rowCount).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The next statements get new connections.
    expect(await queryRows<{ one: number }>(statement)).toEqual([{ one: 1 }]);
    expect(await (await db()).organization.count()).toBeGreaterThanOrEqual(0);
  });
});
