import { ApiError, type ErrorCode } from "./errors";
import type { Pagination } from "./pagination";

/**
 * API bodies carry an organization's data: never stored by a cache. `no-transform` also keeps them out
 * of gzip (Next's and any proxy's): they are small JSON, and compressing a recall response cost
 * ~1.2 ms of its ~29 (measured on the 10k-memory benchmark data).
 */
const API_HEADERS = { "cache-control": "no-store, no-transform" };

export function successResponse(data: unknown, status = 200, pagination?: Pagination): Response {
  return Response.json(pagination ? { success: true, data, pagination } : { success: true, data }, { status, headers: API_HEADERS });
}

export function errorResponse(error: ApiError): Response {
  const body = {
    success: false,
    error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
  };
  return Response.json(body, { status: error.status, headers: { ...API_HEADERS, ...error.headers } });
}

/** Any thrown value as an ApiError: itself, a unique violation as 409, anything else (logged) as a generic 500. */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isUniqueViolation(error)) return new ApiError("CONFLICT", "A resource with these values already exists.");
  console.error("[memgw] unhandled error:", error);
  return new ApiError("INTERNAL_SERVER_ERROR", "Something went wrong on our side. Please try again.");
}

/** Any thrown value as an envelope (see asApiError). */
export function toErrorResponse(error: unknown): Response {
  return errorResponse(asApiError(error));
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "P2002";
}

export function apiErrorResponse(code: ErrorCode, message: string): Response {
  return errorResponse(new ApiError(code, message));
}
