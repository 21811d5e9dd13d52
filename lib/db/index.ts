import { createHash } from "node:crypto";
import { setTimeout } from "node:timers/promises";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { dataDir, databasePooling, databaseUrl, setting } from "@/lib/config";
import { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { noteStatement, stopAccessCache, watchAccessWrites } from "./access-cache";
import { acquireDataDirLock, type DataDirLock } from "./lock";
import { applyMigrations, type MigrationResult, type SqlConnection } from "./migrate";
import { PGliteThread } from "./pglite-thread";
import { copyColumnBytes } from "./copy-column-bytes";
import { BACKGROUND_CONNECTIONS, isBackgroundWork } from "./statement-contexts";

export {
  aheadOfWaitingTransactions,
  asBulkTransfer,
  onBackgroundConnections,
  outsideBackgroundWork,
} from "./statement-contexts";

export { Prisma } from "@/lib/generated/prisma/client";

// What pgvector needs to choose well (measured on PGlite): the HNSW candidate list at least as long as
// the vector leg's LIMIT, iterative scans so that a namespace filter cannot starve it, and SSD costs.
const SEARCH_SETTINGS = "SET hnsw.ef_search = 50; SET hnsw.iterative_scan = relaxed_order; SET random_page_cost = 1.1;";
// Any constant shared by all instances (the migrations' lock is another).
const ONE_AT_A_TIME_LOCK_KEY = 72_407_320;
/** How a statement sent by queryRows is kept. */
export interface StatementOptions {
  /**
   * Its text names one namespace (a literal that lets the planner use that namespace's partial index in a
   * plan it keeps), so there are as many such texts as namespaces. The embedded database keeps it among its
   * bounded set of statements (the least recently used closed); on PostgreSQL it is sent unnamed, planned
   * each time as before, so that no connection keeps one statement per namespace for as long as it lives.
   */
  perNamespaceText?: boolean;
}
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export interface Database {
  prisma: PrismaClient;
  kind: "pglite" | "postgres";
  migrations: MigrationResult;
  /**
   * One statement sent straight to the driver (lib/db/query-rows.ts) and kept parsed on its connection, for
   * what runs on every request.
   */
  queryRows<Row>(sql: string, params: unknown[], options?: StatementOptions): Promise<Row[]>;
  /** As queryRows, the first column of each row, a bytea, as bytes (null as none): originals' parts. */
  columnBytes(sql: string, params: unknown[]): Promise<Uint8Array[]>;
  /** The embedded database's thread, as Linux's tools show it (`top -H`), where it could be read. */
  osThreadId?: number;
  /** The PGlite data directory lock, when this process owns one. */
  lock?: DataDirLock;
  /** Runs `task` when the database closes, before it does: what serves from it (the admin socket) stops first. */
  beforeClose(task: () => Promise<void>): void;
  /**
   * Runs `task` while no other process sharing the database runs one (instances starting together: one
   * bootstraps, the others then find it done); with `scope`, one of that scope (another scope's task runs
   * meanwhile). The embedded database has one process.
   */
  oneAtATime<T>(task: () => Promise<T>, scope?: string): Promise<T>;
  close(): Promise<void>;
}

// Kept on globalThis because Next bundles route modules separately: one database per process.
const holder = globalThis as typeof globalThis & {
  __memgwDatabase?: Promise<Database>;
  __memgwDatabaseGivenUp?: Error;
};

/** The process's database, opened and migrated on first use (never at module load: `next build` imports routes). */
export function getDatabase(): Promise<Database> {
  if (holder.__memgwDatabaseGivenUp) return Promise.reject(holder.__memgwDatabaseGivenUp);
  holder.__memgwDatabase ??= openDatabase().catch((error) => {
    holder.__memgwDatabase = undefined;
    throw error;
  });
  return holder.__memgwDatabase;
}

export async function db(): Promise<PrismaClient> {
  return (await getDatabase()).prisma;
}

/**
 * The rows of one statement, sent without Prisma (see Database.queryRows) but built as Prisma builds one
 * (`Prisma.sql`): each parameter is typed by the statement (a cast where the context does not say).
 */
export async function queryRows<Row>(statement: Prisma.Sql, options?: StatementOptions): Promise<Row[]> {
  return (await getDatabase()).queryRows<Row>(statement.text, statement.values, options);
}

/** The first column of each row of one statement, a bytea, as bytes (Database.columnBytes). */
export async function queryColumnBytes(statement: Prisma.Sql): Promise<Uint8Array[]> {
  return (await getDatabase()).columnBytes(statement.text, statement.values);
}

/** Readiness: the database is open, migrated and answers a query. Returns which kind it is. */
export async function checkDatabase(): Promise<Database["kind"]> {
  const database = await getDatabase();
  await database.prisma.$queryRaw`SELECT 1`;
  return database.kind;
}

/**
 * A server whose start failed is on its way out: no request may open the database behind it (it could
 * succeed a moment later and answer 200 from a process that is exiting), so every later use gets `error`.
 */
export function giveUpDatabase(error: Error): void {
  holder.__memgwDatabaseGivenUp = error;
}

export async function closeDatabase(): Promise<void> {
  const pending = holder.__memgwDatabase;
  holder.__memgwDatabase = undefined;
  if (pending) await (await pending).close();
}

function closeTasks() {
  const tasks: (() => Promise<void>)[] = [];
  return {
    add: (task: () => Promise<void>) => void tasks.push(task),
    run: async () => {
      for (const task of tasks.splice(0).reverse()) await task();
    },
  };
}

async function openDatabase(): Promise<Database> {
  const url = databaseUrl();
  return url ? openPostgres(url) : openPglite(dataDir());
}

/**
 * Behind a pooler in transaction mode (PgBouncer's `pool_mode = transaction`, DATABASE_POOLER=transaction)
 * consecutive statements may reach different server connections: nothing is kept per connection (no named
 * statements, no session settings: the search settings are the database's own, set at start through the
 * direct connection). Migrations hold a session lock, so they go to PostgreSQL itself (DATABASE_DIRECT_URL).
 */
/**
 * How long a transaction may wait to start. Prisma's default, 2 s, failed a single remember with a 500 while
 * another organization's batch held the embedded database's one connection for longer on a busy 2-core machine
 * (the embedded database takes writers in turn; a pool can be as busy): a writer waits its turn instead.
 */
const TRANSACTION_OPTIONS = { maxWait: 30_000 };

/**
 * A connection the server ended while this process was not using it (a restart, a failover, an idle timeout
 * of a proxy, a terminated backend): the pool drops it and opens another for the next statement; a statement
 * under way on it fails with its own error. Unhandled, the client's error event would end the process.
 */
function connectionLost(error: Error) {
  console.error(`[memgw] the database ended a connection (another is opened when needed): ${error.message}`);
}

async function openPostgres(url: string): Promise<Database> {
  const { pooled, directUrl } = databasePooling();
  const migrations = await migrateThrough(directUrl ?? url, pooled);
  const newPool = (max: number) => {
    const created = new pg.Pool({
      connectionString: url,
      max,
      // Awaited by the pool before it hands the connection out (a query sent from its "connect" event would
      // race the first one the pool's user sends).
      onConnect: async (client) => {
        if (!pooled) await client.query(SEARCH_SETTINGS);
      },
    });
    created.on("error", connectionLost);
    return created;
  };
  const pool = newPool(setting("DATABASE_POOL_SIZE"));
  // Connects only when background work first sends a statement.
  const backgroundPool = newPool(BACKGROUND_CONNECTIONS);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_OPTIONS });
  const closing = closeTasks();
  const statement = (sql: string, values: unknown[], options?: StatementOptions) => ({
    name:
      pooled || options?.perNamespaceText
        ? undefined
        : `memgw_${createHash("sha256").update(sql).digest("hex").slice(0, 24)}`,
    text: sql,
    values,
  });
  const poolFor = () => (isBackgroundWork() ? backgroundPool : pool);
  return {
    prisma,
    kind: "postgres",
    migrations,
    // Kept parsed on each connection under a name given by the text, as the embedded database keeps them
    // (unless a pooler may hand the next statement another connection).
    queryRows: async <Row>(sql: string, params: unknown[], options?: StatementOptions) =>
      (await poolFor().query(statement(sql, params, options))).rows as Row[],
    columnBytes: (sql, params) => copyColumnBytes(poolFor(), sql, params),
    beforeClose: closing.add,
    // A session lock on a connection of its own (through a pooler, on PostgreSQL itself).
    async oneAtATime(task, scope) {
      const client = new pg.Client({ connectionString: directUrl ?? url });
      client.on("error", connectionLost);
      await client.connect();
      try {
        // A scope's lock is of the two-key kind, which never meets the one-key lock of the unscoped task.
        const attempt =
          scope === undefined
            ? { text: "SELECT pg_try_advisory_lock($1) AS held", values: [ONE_AT_A_TIME_LOCK_KEY] }
            : {
                text: "SELECT pg_try_advisory_lock($1, hashtext($2)) AS held",
                values: [ONE_AT_A_TIME_LOCK_KEY, scope],
              };
        // Asked again and again rather than waited for: a statement waiting for the lock holds a snapshot, and a
        // CREATE INDEX CONCURRENTLY run by the holder waits for every older snapshot to end, so the holder's
        // build and the waiter would wait for each other for ever (two instances repairing one index did).
        for (let pause = 10; !(await client.query<{ held: boolean }>(attempt)).rows[0].held;) {
          await setTimeout(pause);
          pause = Math.min(pause * 2, 250);
        }
        return await task();
      } finally {
        await client.end();
      }
    },
    async close() {
      await closing.run();
      await prisma.$disconnect();
      await Promise.all([pool.end(), backgroundPool.end()]);
    },
  };
}

/**
 * Applies the migrations over a connection of its own. Behind a pooler, the search settings become the
 * database's defaults too (new sessions start with them), where the role may set them.
 */
async function migrateThrough(url: string, pooled: boolean): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", connectionLost);
  await client.connect();
  try {
    const migrations = await applyMigrations({
      exec: (sql) => client.query(sql),
      query: async (sql, params) => (await client.query(sql, params)).rows,
    });
    if (pooled) {
      const settings = SEARCH_SETTINGS.split(";")
        .map((statement) => statement.trim().replace(/^SET /, ""))
        .filter(Boolean);
      for (const setting of settings) {
        await client
          .query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET ${setting}', current_database()); END $$`)
          .catch((error: Error) =>
            console.warn(
              `[memgw] could not make "${setting}" the database's default (${error.message}): ` +
                "set it as docs/deployment.md says, or searches may choose slower plans.",
            ),
          );
      }
    }
    return migrations;
  } finally {
    await client.end();
  }
}

async function openPglite(dir: string): Promise<Database> {
  const lock = await acquireDataDirLock(dir, setting("MEMGW_PROCESS_ROLE") || "server");
  let pglite: PGliteThread | undefined;
  try {
    // PGlite's page cache (PGLITE_CACHE_MB). Postgres's default of 128 MB holds less than the search
    // structures of 10,000 memories (postings, HNSW graph and chunks: ~220 MB), and a page it drops is read
    // again through the WebAssembly file system on a later recall. The WebAssembly heap ends at 2 GiB.
    pglite = await PGliteThread.open(dir, ["-c", `shared_buffers=${setting("PGLITE_CACHE_MB")}MB`]);
    const conn: SqlConnection = {
      exec: (sql) => pglite!.exec(sql),
      query: async <Row>(sql: string, params?: unknown[]) => (await pglite!.query<Row>(sql, params)).rows,
    };
    const migrations = await applyMigrations(conn);
    // A migration that rewrote rows of a database in use (a backfill) leaves dead rows and a cleared
    // visibility map behind, and PGlite has no autovacuum: index-only scans would read the heap until
    // the next maintenance pass.
    if (migrations.applied.length && migrations.alreadyApplied) await pglite.exec("VACUUM (ANALYZE)");
    await pglite.exec(SEARCH_SETTINGS);
    // The adapter uses query, exec and transaction, which PGliteThread has as PGlite has them.
    const prisma = new PrismaClient({
      adapter: new PrismaPGlite(watchAccessWrites(pglite) as unknown as PGlite),
      transactionOptions: TRANSACTION_OPTIONS,
    });
    const opened = pglite;
    const closing = closeTasks();
    return {
      prisma,
      kind: "pglite",
      migrations,
      osThreadId: opened.osThreadId,
      queryRows: (sql, params) => {
        noteStatement(sql);
        return opened.rows(sql, params);
      },
      columnBytes: (sql, params) => opened.columnBytes(sql, params),
      lock,
      beforeClose: closing.add,
      oneAtATime: (task) => task(),
      async close() {
        await closing.run();
        await prisma.$disconnect();
        stopAccessCache();
        await opened.close();
        lock.release();
      },
    };
  } catch (error) {
    await pglite?.close().catch(() => undefined);
    lock.release();
    throw error;
  }
}
