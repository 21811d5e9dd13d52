import { RateLimitedError, type RateLimitQuota } from "@/lib/errors";
import { hitRateLimit } from "@/lib/rate-limit/limiter";
import type { ApiKeyPrincipal } from "./api-keys";

/** Requests per minute per API key unless API_RATE_LIMIT_PER_MINUTE says otherwise. */
export const DEFAULT_API_RATE_LIMIT_PER_MINUTE = 3000;
const ONE_MINUTE = 60_000;

/**
 * API_RATE_LIMIT_PER_MINUTE: requests one API key may make per minute, over HTTP and MCP together;
 * 0 turns the limit off.
 */
export function apiRateLimitPerMinute(): number {
  const raw = process.env.API_RATE_LIMIT_PER_MINUTE;
  if (raw === undefined || raw.trim() === "") return DEFAULT_API_RATE_LIMIT_PER_MINUTE;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(
      `API_RATE_LIMIT_PER_MINUTE must be a whole number of requests (0 turns the limit off), not "${raw}".`,
    );
  }
  return value;
}

/**
 * Counts one request of an authenticated key, whatever it asks for (refused requests cost the server
 * too), in the database so that every server instance counts together (in the process when the database
 * is embedded: it has one server). Returns where the key stands (nothing when the limit is off); over the
 * limit, throws RateLimitedError carrying that quota.
 */
export async function countKeyRequest(key: ApiKeyPrincipal): Promise<RateLimitQuota | undefined> {
  const limit = apiRateLimitPerMinute();
  if (limit === 0) return undefined;
  const rule = { name: "api-key-requests", limit, windowMs: ONE_MINUTE, inProcessWhenEmbedded: true };
  const verdict = await hitRateLimit(rule, key.keyId);
  const quota = { limit: verdict.limit, remaining: verdict.remaining, resetSeconds: verdict.resetSeconds };
  if (!verdict.allowed) {
    throw new RateLimitedError(
      `This API key made more than ${limit} requests this minute. Try again in ${verdict.resetSeconds} seconds.`,
      verdict.resetSeconds,
      quota,
    );
  }
  return quota;
}
