import { setting } from "@/lib/config";
import { RateLimitedError, type RateLimitQuota } from "@/lib/errors";
import { hitRateLimit } from "@/lib/rate-limit/limiter";
import type { ApiKeyPrincipal } from "./api-keys/api-key-principal";

const ONE_MINUTE = 60_000;

/**
 * API_RATE_LIMIT_PER_MINUTE: requests one API key may make per minute, over HTTP and MCP together;
 * 0 turns the limit off.
 */
export function apiRateLimitPerMinute(): number {
  return setting("API_RATE_LIMIT_PER_MINUTE");
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
