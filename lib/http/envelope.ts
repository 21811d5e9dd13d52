import { describeError, type ErrorReport } from "./errors";
import type { Pagination } from "./pagination";
import { currentRequestId } from "./request-id";

/**
 * API bodies carry an organization's data: never stored by a cache. `no-transform` also keeps them out
 * of gzip (Next's and any proxy's): they are small JSON, and compressing a recall response cost
 * ~1.2 ms of its ~29 (measured on the 10k-memory benchmark data).
 */
export const API_HEADERS = { "cache-control": "no-store, no-transform" };

export function successResponse(data: unknown, status = 200, pagination?: Pagination): Response {
  return Response.json(pagination ? { success: true, data, pagination } : { success: true, data }, {
    status,
    headers: API_HEADERS,
  });
}

/**
 * An error in the envelope: `{success: false, error: {code, message, details?, request_id?}}` with its status
 * and headers; `request_id` when it answers a request of the API (lib/http/request-id.ts).
 */
export function errorResponse(report: ErrorReport): Response {
  const requestId = currentRequestId();
  const body = {
    success: false,
    error: {
      code: report.code,
      message: report.message,
      ...(report.details ? { details: report.details } : {}),
      ...(requestId ? { request_id: requestId } : {}),
    },
  };
  return Response.json(body, { status: report.status, headers: { ...API_HEADERS, ...report.headers } });
}

/** Any thrown value as an envelope (see describeError). */
export function toErrorResponse(error: unknown): Response {
  return errorResponse(describeError(error));
}
