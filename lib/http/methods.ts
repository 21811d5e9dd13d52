import { errorResponse, toErrorResponse } from "./envelope";
import { errorReport } from "./errors";
import { REQUEST_ID_HEADER, requestIdOf, runAsRequest } from "./request-id";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route's context has its own params
export type RouteHandler = (request: Request, context: any) => Response | Promise<Response>;

/**
 * A route file's exports: its handlers, a 405 in the envelope with `Allow` for every other method
 * (Next's own 405 has an empty body), and OPTIONS. Done per route rather than in a proxy in front of
 * the API, which cost 2 ms on every request.
 */
export function apiRoute(
  handlers: Partial<Record<Method, RouteHandler>>,
  /** `notAllowed`: what the 405's message adds after "use …", e.g. why the route takes only those methods. */
  options: { notAllowed?: string } = {},
): Record<Method | "OPTIONS", RouteHandler> {
  const allowed = METHODS.filter((method) => handlers[method]);
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const why = options.notAllowed ? ` ${options.notAllowed}` : "";
  const message = (method: string) => `${method} is not allowed here; use ${allowed.join(", ")}.${why}`;
  const notAllowed = (request: Request) =>
    errorResponse(errorReport("METHOD_NOT_ALLOWED", message(request.method), { allow }));
  const route = Object.fromEntries(
    METHODS.map((method) => [method, withRequestId(handlers[method] ?? notAllowed)]),
  ) as Record<Method | "OPTIONS", RouteHandler>;
  route.OPTIONS = withRequestId(() => new Response(null, { status: 204, headers: { allow } }));
  return route;
}

/**
 * A handler whose every answer names the request (`Request-Id`, and `error.request_id` in an error's
 * envelope; see lib/http/request-id.ts), a failure it did not answer itself included: a 500 in the
 * envelope, logged with the same id.
 */
export function withRequestId(handler: RouteHandler): RouteHandler {
  return (request, context) => {
    const id = requestIdOf(request);
    return runAsRequest(id, async () => {
      let response: Response;
      try {
        response = await handler(request, context);
      } catch (error) {
        response = toErrorResponse(error);
      }
      try {
        response.headers.set(REQUEST_ID_HEADER, id);
        return response;
      } catch {
        // A response whose headers cannot change (one fetched, a redirect's): the same answer, headers copied.
        const copy = new Response(response.body, response);
        copy.headers.set(REQUEST_ID_HEADER, id);
        return copy;
      }
    });
  };
}

/**
 * HEAD from a route's GET: GET's status and headers, its body cancelled unread. Next answers a HEAD by running
 * GET and dropping the body without cancelling it, so a download's stream (and the transfer turn it holds,
 * lib/http/transfer-slots.ts) would wait for a reader that never comes.
 */
export function headOf(get: RouteHandler): RouteHandler {
  return async (request, context) => {
    const response = await get(request, context);
    await response.body?.cancel().catch(() => undefined);
    return new Response(null, { status: response.status, headers: response.headers });
  };
}
