// Values a memory's stored fields are computed from, the same for remember, update and import.
import { createHash } from "node:crypto";

/** The hash that finds a memory repeating another's content (lib/memory/write/remember-duplicates.ts). */
export function contentHash(content: string): string {
  return createHash("sha256").update(content).digest("hex");
}

/** When an item expires: its `expires_at`, or `ttl_seconds` from `now`; null when it does not. */
export function expiryOf(item: { expires_at?: string | null; ttl_seconds?: number }, now: Date): Date | null {
  if (item.ttl_seconds !== undefined) return new Date(now.getTime() + item.ttl_seconds * 1000);
  return item.expires_at ? new Date(item.expires_at) : null;
}
