import { authenticateApiKey } from "@/lib/auth/api-keys";
import { countKeyRequest } from "@/lib/auth/key-rate-limit";
import { readJsonBody } from "@/lib/http/body";
import { successResponse, toErrorResponse } from "@/lib/http/envelope";
import { rateLimitHeaders, withRateLimitHeaders } from "@/lib/http/rate-limit-headers";
import { runOperation } from "@/lib/operations/run";
import type { Endpoint } from "./endpoint";

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/**
 * The one request wrapper of the HTTP API: authenticates the API key from the `Authorization` header,
 * counts the request against the key's rate limit (429 past it; `RateLimit-*` headers on every answer),
 * runs the endpoint's operation (permission, validation, function, response schema, activity row; see
 * runOperation) and answers in the envelope, errors included.
 */
export function withApiKey(endpoint: Endpoint) {
  return async function route(request: Request, routeContext: RouteContext): Promise<Response> {
    const started = performance.now();
    let limitHeaders: Record<string, string> = {};
    try {
      const key = await authenticateApiKey(request.headers.get("authorization"));
      const quota = await countKeyRequest(key);
      if (quota) limitHeaders = rateLimitHeaders(quota);
      const result = await runOperation(
        endpoint.operation,
        key,
        {
          params: (await routeContext?.params) ?? {},
          query: queryParameters(new URL(request.url).searchParams),
          body: () => readJsonBody(request),
        },
        started,
      );
      return withRateLimitHeaders(successResponse(result.data, result.status, result.pagination), limitHeaders);
    } catch (error) {
      return withRateLimitHeaders(toErrorResponse(error), limitHeaders);
    }
  };
}

/** The query string as the operation's input: a repeated parameter keeps every value, in order. */
export function queryParameters(searchParams: URLSearchParams): Record<string, string | string[]> {
  // fromEntries defines own properties: a parameter named `__proto__` is a parameter, not a prototype.
  return Object.fromEntries(
    [...new Set(searchParams.keys())].map((name) => {
      const values = searchParams.getAll(name);
      return [name, values.length === 1 ? values[0] : values];
    }),
  );
}
