import type { z } from "zod";
import { recordActivity, type ActivityNote } from "@/lib/activity/activity";
import { authenticateApiKey, type ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { readJsonBody } from "./body";
import type { Endpoint, Parsed } from "./endpoint";
import { successResponse, toErrorResponse } from "./envelope";
import { ApiError, validationError } from "./errors";
import { Page } from "./pagination";

export interface RequestContext<E extends Endpoint> {
  org: { id: string };
  key: ApiKeyPrincipal;
  body: Parsed<E["body"]>;
  query: Parsed<E["query"]>;
  params: Parsed<E["params"]>;
  /** For memory operations: the handler notes the namespace and identity for the activity log. */
  activity: ActivityNote;
}

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/**
 * The one request wrapper: authenticates the API key, checks the endpoint's permission, parses path,
 * query and body with the endpoint's schemas, runs the handler, passes its result through the response
 * schema (so internal columns cannot leak), maps every error to the envelope and, for memory
 * operations, writes the activity log row.
 */
export function withApiKey<E extends Endpoint>(
  endpoint: E,
  handler: (context: RequestContext<E>) => Promise<unknown>,
) {
  return async function route(request: Request, routeContext: RouteContext): Promise<Response> {
    const started = performance.now();
    let key: ApiKeyPrincipal | undefined;
    const activity: ActivityNote = {};
    let response: Response;
    try {
      key = await authenticateApiKey(request.headers.get("authorization"));
      if (endpoint.permission && !key.permissions.includes(endpoint.permission)) {
        throw new ApiError("FORBIDDEN", `This API key lacks the ${endpoint.permission} permission.`);
      }
      const params = parse(endpoint.params, (await routeContext?.params) ?? {}, "path");
      const query = parse(endpoint.query, Object.fromEntries(new URL(request.url).searchParams), "query");
      const body = endpoint.body ? parse(endpoint.body, await readJsonBody(request), "body") : undefined;
      const result = await handler({ org: { id: key.orgId }, key, body, query, params, activity } as RequestContext<E>);
      const status = endpoint.successStatus ?? 200;
      response =
        result instanceof Page
          ? successResponse(result.items.map((item) => endpoint.response.parse(item)), status, result.pagination)
          : successResponse(endpoint.response.parse(result), status);
    } catch (error) {
      response = toErrorResponse(error);
    }
    if (endpoint.activity && key) {
      await recordActivity({
        ...activity,
        orgId: key.orgId,
        apiKeyId: key.keyId,
        operation: endpoint.activity,
        status: response.status,
        latencyMs: performance.now() - started,
      }).catch((error) => console.error("[memgw] activity log write failed:", error));
    }
    return response;
  };
}

function parse(schema: z.ZodType | undefined, value: unknown, location: "body" | "query" | "path") {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, location);
  return parsed.data;
}
