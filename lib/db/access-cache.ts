import type { PGliteSession, PGliteThread, PGliteTransaction } from "./pglite-thread";

// Reads that every request makes (with the embedded database, who a key is and which namespace it reaches
// are a tenth of a short recall) are kept here for a few seconds, each naming the tables it reads; any write
// to one of those tables clears them all at once, before the write's transaction ends, so what a write
// revokes is refused on the very next request. Only the embedded database caches: there this process is
// the only writer (the admin command line goes through its socket). Servers sharing a PostgreSQL database
// cannot see each other's writes, so with PostgreSQL every request reads.

/** A table name as a cached read declares it: a word, so that a statement's text can be searched for it. */
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A statement that only reads; anything else (DML, DDL, a DO block, a CTE) may write. */
const READ_ONLY = /^\s*(select|show|explain)\b/i;
/** Longest an entry is kept when nothing was written: a bound for anything a write might not reveal. */
const ACCESS_CACHE_TTL_MS = 10_000;
const ACCESS_CACHE_MAX_ENTRIES = 10_000;

interface AccessCacheState {
  enabled: boolean;
  /** Bumped by every write to a watched table: a read started before a bump is not kept. */
  generation: number;
  entries: Map<string, { value: unknown; storedAt: number }>;
  /** The tables the cached reads declared so far, and a pattern finding any of them in a statement. */
  watched: Set<string>;
  watchedPattern?: RegExp;
}

// On globalThis because Next bundles route modules separately: one cache per process, like the database.
const holder = globalThis as typeof globalThis & { __memgwReadCache?: AccessCacheState };
const state: AccessCacheState = (holder.__memgwReadCache ??= {
  enabled: false,
  generation: 0,
  entries: new Map(),
  watched: new Set(),
});

/**
 * `load()`'s answer for `key`, read from `tables` (and what cascades into them), kept until one of them
 * is written or ACCESS_CACHE_TTL_MS pass. Answers are copied in and out (a caller may change what it gets).
 * A null answer is not kept: a miss is read again, so unknown keys sent by anybody cannot fill the cache.
 */
export async function cachedRead<T>(
  key: string,
  tables: readonly string[],
  load: () => Promise<T | null>,
): Promise<T | null> {
  if (!state.enabled) return load();
  // Watched before the read starts: a write to a table not yet watched cannot have changed an entry.
  watchTables(tables);
  const now = performance.now();
  const entry = state.entries.get(key);
  if (entry && now - entry.storedAt < ACCESS_CACHE_TTL_MS) return structuredClone(entry.value as T);
  const generation = state.generation;
  const value = await load();
  if (value !== null && generation === state.generation) {
    if (state.entries.size >= ACCESS_CACHE_MAX_ENTRIES) state.entries.delete(state.entries.keys().next().value!);
    state.entries.delete(key);
    state.entries.set(key, { value: structuredClone(value), storedAt: now });
  }
  return value;
}

function accessChanged() {
  state.generation++;
  state.entries.clear();
}

function watchTables(tables: readonly string[]) {
  if (tables.every((table) => state.watched.has(table))) return;
  for (const table of tables) {
    if (!TABLE_NAME.test(table))
      throw new Error(`The access cache cannot watch ${JSON.stringify(table)}: not a table name.`);
    state.watched.add(table);
  }
  state.watchedPattern = new RegExp(`\\b(${[...state.watched].join("|")})\\b`, "i");
}

/** Sees a statement as it is sent: one that may write a watched table empties the cache. */
export function noteStatement(sql: string) {
  if (state.watchedPattern && !READ_ONLY.test(sql) && state.watchedPattern.test(sql)) accessChanged();
}

/**
 * The embedded database as Prisma's adapter uses it, with the cache turned on and every statement seen:
 * one that may write a watched table clears the cache when it runs and again when its transaction ends
 * (a read between the two saw the rows before the commit).
 */
export function watchAccessWrites(pglite: PGliteThread): PGliteThread {
  state.enabled = true;
  accessChanged();
  const watchedTransaction = (tx: PGliteTransaction): PGliteTransaction => forwarding(tx, statementsSeen(tx));
  return forwarding(pglite, {
    ...statementsSeen(pglite),
    transaction: async <T>(callback: (tx: PGliteTransaction) => Promise<T>) => {
      const before = state.generation;
      try {
        return await pglite.transaction((tx) => callback(watchedTransaction(tx)));
      } finally {
        if (state.generation !== before) accessChanged();
      }
    },
  });
}

/** `query` and `exec` of a connection or transaction, each statement seen before it is sent. */
function statementsSeen(connection: PGliteSession) {
  const seen =
    (method: "query" | "exec") =>
    (sql: string, ...rest: unknown[]) => {
      noteStatement(sql);
      return (connection[method] as (...args: unknown[]) => unknown).call(connection, sql, ...rest);
    };
  return { query: seen("query"), exec: seen("exec") };
}

/** `target` with `overrides` in place of some methods; every other member read from it (bound to it). */
function forwarding<T extends object>(target: T, overrides: Record<string, unknown>): T {
  return new Proxy(target, {
    get(object, property) {
      if (typeof property === "string" && property in overrides) return overrides[property];
      const value = Reflect.get(object, property, object);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}

/** Turns the cache off and empties it (the database closed; the next one decides again). */
export function stopAccessCache(): void {
  state.enabled = false;
  accessChanged();
}
