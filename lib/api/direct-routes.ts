// The memory operations' routes and the health check, which the production server (scripts/http-server.mjs)
// hands straight to their handlers: Next's router and route module cost the main thread about 0.6 ms of CPU per
// recall, a fifth of its share (per-thread CPU at 8 clients). Their route files export the same handlers, so what
// answers is the same code either way; every other route, and everything under `next dev`, goes through Next.
import { withApiKey } from "@/lib/api/with-api-key";
import { checkDatabase } from "@/lib/db";
import { successResponse, toErrorResponse } from "@/lib/http/envelope";
import { apiRoute, type RouteHandler } from "@/lib/http/methods";
import { embedderReady } from "@/lib/memory/embeddings";
import { operations } from "@/lib/operations/catalogue";

/** GET /api/v1/health: 200 once the database answers; whether the embedding model has loaded. */
async function health() {
  try {
    const database = await checkDatabase();
    return successResponse({ status: "ok", database, embeddings: embedderReady() ? "ready" : "loading" });
  } catch (error) {
    return toErrorResponse(error);
  }
}

/**
 * Each direct route's handlers by method (apiRoute's: the methods it does not take answer 405, OPTIONS 204), by its
 * exact path. Static paths only: there are no path parameters to decode as Next would.
 */
export const DIRECT_ROUTES = {
  "/api/v1/remember": apiRoute({ POST: withApiKey(operations.remember) }),
  "/api/v1/recall": apiRoute({ POST: withApiKey(operations.recall) }),
  "/api/v1/forget": apiRoute({ POST: withApiKey(operations.forget) }),
  "/api/v1/ask": apiRoute({ POST: withApiKey(operations.ask) }),
  "/api/v1/health": apiRoute({ GET: health }),
};

/** The direct routes' handlers by `METHOD /path`, e.g. `POST /api/v1/recall`. HEAD is left to Next (GET's answer). */
export type DirectRoutes = ReadonlyMap<string, RouteHandler>;

/** DIRECT_ROUTES as the host looks a request up: by `METHOD /path`, the path exactly as sent, without its query. */
export function directRoutes(): DirectRoutes {
  return new Map(
    Object.entries(DIRECT_ROUTES).flatMap(([path, handlers]) =>
      Object.entries(handlers).map(([method, handler]) => [`${method} ${path}`, handler] as const),
    ),
  );
}
