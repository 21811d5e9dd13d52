import type { RateLimitQuota } from "@/lib/errors";

/** The `RateLimit-*` headers (IETF draft, as GitHub and Cloudflare send them) that tell a client where it stands. */
export function rateLimitHeaders(quota: RateLimitQuota): Record<string, string> {
  return {
    "ratelimit-limit": String(quota.limit),
    "ratelimit-remaining": String(quota.remaining),
    "ratelimit-reset": String(quota.resetSeconds),
  };
}

/** The response with the rate-limit headers added (an error's own headers stay as they are). */
export function withRateLimitHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}
