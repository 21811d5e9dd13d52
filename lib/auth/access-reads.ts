import { cachedRead } from "@/lib/db/access-cache";

/**
 * The tables a key's principal and a namespace's resolution are read from, and those whose writes cascade
 * into them: a write to any of them (a revoked key, a removed grant or member, a deleted namespace) clears
 * the cached reads at once.
 */
const ACCESS_TABLES = ["organizations", "users", "memberships", "api_keys", "namespaces", "namespace_grants"];

/**
 * `load()`'s answer for `key` when it reads who a key is or which namespace a principal reaches: kept a few
 * seconds by the embedded database (lib/db/access-cache.ts), until any of ACCESS_TABLES is written.
 */
export function cachedAccessRead<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
  return cachedRead(key, ACCESS_TABLES, load);
}
