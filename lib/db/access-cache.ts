import type { PGliteSession, PGliteThread, PGliteTransaction } from "./pglite-thread";

// Every API request reads who its key is and which namespace it reaches; with the embedded database those
// reads are a tenth of a short recall. They are kept here for a few seconds, and any write to a table they
// come from clears them all at once, before the write's transaction ends: a revoked key, a removed grant
// or member, a deleted namespace fail on their very next request. Only the embedded database caches:
// there this process is the only writer (the admin command line goes through its socket). Servers sharing
// a PostgreSQL database cannot see each other's writes, so with PostgreSQL every request reads.

/** The tables a key's principal and a namespace's resolution are read from (and what cascades into them). */
const ACCESS_TABLES = /\b(organizations|users|memberships|api_keys|namespaces|namespace_grants)\b/i;
/** A statement that only reads; anything else (DML, DDL, a DO block, a CTE) may write. */
const READ_ONLY = /^\s*(select|show|explain)\b/i;
/** Longest an entry is kept when nothing was written: a bound for anything a write might not reveal. */
const ACCESS_CACHE_TTL_MS = 10_000;
const ACCESS_CACHE_MAX_ENTRIES = 10_000;

interface AccessCacheState {
  enabled: boolean;
  /** Bumped by every write to an access table: a read started before a bump is not kept. */
  generation: number;
  entries: Map<string, { value: unknown; storedAt: number }>;
}

// On globalThis because Next bundles route modules separately: one cache per process, like the database.
const holder = globalThis as typeof globalThis & { __memgwAccessCache?: AccessCacheState };
const state = (holder.__memgwAccessCache ??= { enabled: false, generation: 0, entries: new Map() });

/**
 * `load()`'s answer for `key`, kept until an access table is written or ACCESS_CACHE_TTL_MS pass. Answers
 * are copied in and out (a caller may change what it gets). A null answer is not kept: a miss is read
 * again, so unknown keys sent by anybody cannot fill the cache.
 */
export async function cachedAccessRead<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
  if (!state.enabled) return load();
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

/** Sees a statement as it is sent: one that may write an access table empties the cache. */
export function noteStatement(sql: string) {
  if (!READ_ONLY.test(sql) && ACCESS_TABLES.test(sql)) accessChanged();
}

/**
 * The embedded database as Prisma's adapter uses it, with the cache turned on and every statement seen:
 * one that may write an access table clears the cache when it runs and again when its transaction ends
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
