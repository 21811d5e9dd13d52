import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { hitRateLimit, type RateLimitVerdict } from "@/lib/rate-limit/limiter";
import { ApiError } from "./errors";

/** Requests per minute per API key unless API_RATE_LIMIT_PER_MINUTE says otherwise. */
export const DEFAULT_API_RATE_LIMIT_PER_MINUTE = 3000;
const ONE_MINUTE = 60_000;

/** API_RATE_LIMIT_PER_MINUTE: requests one API key may make per minute, over HTTP and MCP together; 0 turns the limit off. */
export function apiRateLimitPerMinute(): number {
  const raw = process.env.API_RATE_LIMIT_PER_MINUTE;
  if (raw === undefined || raw.trim() === "") return DEFAULT_API_RATE_LIMIT_PER_MINUTE;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`API_RATE_LIMIT_PER_MINUTE must be a whole number of requests (0 turns the limit off), not "${raw}".`);
  }
  return value;
}

/** The `RateLimit-*` headers (IETF draft, as GitHub and Cloudflare send them) that tell a client where it stands. */
export function rateLimitHeaders(verdict: RateLimitVerdict): Record<string, string> {
  return {
    "ratelimit-limit": String(verdict.limit),
    "ratelimit-remaining": String(verdict.remaining),
    "ratelimit-reset": String(verdict.resetSeconds),
  };
}

/**
 * Counts one request of an authenticated key, whatever it asks for (refused requests cost the server
 * too), in the database so that every server instance counts together. Returns the headers to send
 * with the response; over the limit, throws 429 RATE_LIMITED carrying them and `Retry-After`.
 */
export async function countKeyRequest(key: ApiKeyPrincipal): Promise<Record<string, string>> {
  const limit = apiRateLimitPerMinute();
  if (limit === 0) return {};
  const verdict = await hitRateLimit({ name: "api-key-requests", limit, windowMs: ONE_MINUTE }, key.keyId);
  const headers = rateLimitHeaders(verdict);
  if (!verdict.allowed) {
    throw new ApiError(
      "RATE_LIMITED",
      `This API key made more than ${limit} requests this minute. Try again in ${verdict.resetSeconds} seconds.`,
      undefined,
      { ...headers, "retry-after": String(verdict.resetSeconds) },
    );
  }
  return headers;
}

/** The response with the rate-limit headers added (an error's own headers stay as they are). */
export function withRateLimitHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}
