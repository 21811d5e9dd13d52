import { authenticateApiKey } from "@/lib/auth/api-keys";
import { readJsonBody } from "./body";
import type { Endpoint } from "./endpoint";
import { successResponse, toErrorResponse } from "./envelope";
import { countKeyRequest, withRateLimitHeaders } from "./key-rate-limit";
import { runOperation, type Handler } from "./operation";

export type { RequestContext } from "./operation";

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/**
 * The one request wrapper of the HTTP API: authenticates the API key from the `Authorization` header,
 * counts the request against the key's rate limit (429 past it; `RateLimit-*` headers on every answer),
 * runs the endpoint's operation (permission, validation, handler, response schema, activity row; see
 * runOperation) and answers in the envelope, errors included.
 */
export function withApiKey<E extends Endpoint>(endpoint: E, handler: Handler<E>) {
  return async function route(request: Request, routeContext: RouteContext): Promise<Response> {
    const started = performance.now();
    let limitHeaders: Record<string, string> = {};
    try {
      const key = await authenticateApiKey(request.headers.get("authorization"));
      limitHeaders = await countKeyRequest(key);
      const result = await runOperation(
        endpoint,
        key,
        {
          params: (await routeContext?.params) ?? {},
          query: Object.fromEntries(new URL(request.url).searchParams),
          body: () => readJsonBody(request),
        },
        handler,
        started,
      );
      return withRateLimitHeaders(successResponse(result.data, result.status, result.pagination), limitHeaders);
    } catch (error) {
      return withRateLimitHeaders(toErrorResponse(error), limitHeaders);
    }
  };
}
