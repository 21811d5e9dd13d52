import type { z } from "zod";
import { recordActivity, type ActivityNote } from "@/lib/activity/activity";
import { missingPermissionMessage, type ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { assertNamespaceWideAllowed } from "@/lib/auth/principal";
import type { Endpoint, Parsed } from "./endpoint";
import { asApiError } from "./envelope";
import { ApiError, validationError } from "./errors";
import { Page, type Pagination } from "./pagination";

export interface RequestContext<E extends Endpoint> {
  org: { id: string };
  key: ApiKeyPrincipal;
  body: Parsed<E["body"]>;
  query: Parsed<E["query"]>;
  params: Parsed<E["params"]>;
  /** For memory operations: the handler notes the namespace and identity for the activity log. */
  activity: ActivityNote;
}

export type Handler<E extends Endpoint> = (context: RequestContext<E>) => Promise<unknown>;

/** What an operation is called with, before validation: over HTTP the path, query string and body; over MCP a tool's arguments. */
export interface OperationInput {
  params?: Record<string, unknown>;
  query?: Record<string, string>;
  /** Read only once the key is known to have the permission (HTTP bodies can be large). */
  body?: () => Promise<unknown>;
}

export interface OperationResult {
  status: number;
  data: unknown;
  pagination?: Pagination;
}

/**
 * One operation by an authenticated key, whatever the transport: checks the endpoint's permission (403),
 * parses path, query and body with its schemas (400 with `details[].field` like
 * `body.memories.3.content`), runs the handler, passes the result through the response schema (so
 * internal columns cannot leak) and, for memory operations, writes the activity row (refusals included)
 * without holding the response for it.
 * Errors come out as ApiError.
 */
export async function runOperation<E extends Endpoint>(
  endpoint: E,
  key: ApiKeyPrincipal,
  input: OperationInput,
  handler: Handler<E>,
  started = performance.now(),
): Promise<OperationResult> {
  const activity: ActivityNote = {};
  let status = 500;
  try {
    if (endpoint.permission && !key.permissions.includes(endpoint.permission)) {
      throw new ApiError("FORBIDDEN", missingPermissionMessage(key, endpoint.permission));
    }
    if (endpoint.namespaceWide) assertNamespaceWideAllowed(key, endpoint.namespaceWide);
    const params = parse(endpoint.params, input.params ?? {}, "path");
    const query = parse(endpoint.query, input.query ?? {}, "query");
    const body = endpoint.body ? parse(endpoint.body, await input.body?.(), "body") : undefined;
    const result = await handler({ org: { id: key.orgId }, key, body, query, params, activity } as RequestContext<E>);
    status = endpoint.successStatus ?? 200;
    if (result instanceof Page) {
      return { status, data: result.items.map((item) => endpoint.response.parse(item)), pagination: result.pagination };
    }
    return { status, data: endpoint.response.parse(result) };
  } catch (error) {
    const apiError = asApiError(error);
    status = apiError.status;
    throw apiError;
  } finally {
    if (endpoint.activity) {
      // Not awaited: the caller does not wait the millisecond the write takes. It starts before the
      // response is returned, so on the embedded database (one connection, statements in order) any
      // later statement sees it; on PostgreSQL it may land a moment after the response.
      void recordActivity({
        ...activity,
        orgId: key.orgId,
        apiKeyId: key.keyId,
        operation: endpoint.activity,
        status,
        latencyMs: performance.now() - started,
      }).catch((error) => console.error("[memgw] activity log write failed:", error));
    }
  }
}

function parse(schema: z.ZodType | undefined, value: unknown, location: "body" | "query" | "path") {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, location);
  return parsed.data;
}
