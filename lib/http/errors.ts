import { z } from "zod";
import {
  ConflictError,
  DomainError,
  type ErrorDetail,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  UnauthenticatedError,
  UnsupportedMediaTypeError,
  UnavailableError,
  UpstreamError,
} from "@/lib/errors";
import { named } from "@/lib/validation/named";
import { rateLimitHeaders } from "./rate-limit-headers";
import { currentRequestId } from "./request-id";
import { isUniqueViolation } from "@/lib/db/unique-violation";

/** The one table from error code to HTTP status (docs/decisions.md). */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  REQUEST_HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  UPSTREAM_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Each domain error's code: the `error.code` of the envelope, the prefix of an MCP tool error, the CLI's. */
const DOMAIN_ERROR_CODES: [abstract new (...args: never[]) => DomainError, ErrorCode][] = [
  [InvalidError, "BAD_REQUEST"],
  [UnauthenticatedError, "UNAUTHORIZED"],
  [ForbiddenError, "FORBIDDEN"],
  [NotFoundError, "NOT_FOUND"],
  [ConflictError, "CONFLICT"],
  [PayloadTooLargeError, "PAYLOAD_TOO_LARGE"],
  [UnsupportedMediaTypeError, "UNSUPPORTED_MEDIA_TYPE"],
  [RateLimitedError, "RATE_LIMITED"],
  [UpstreamError, "UPSTREAM_ERROR"],
  [UnavailableError, "SERVICE_UNAVAILABLE"],
];

/** An error as every transport reports it: code, status, message, details and the headers it adds. */
export interface ErrorReport {
  code: ErrorCode;
  status: number;
  message: string;
  details?: ErrorDetail[];
  headers?: Record<string, string>;
}

export const INTERNAL_MESSAGE = "Something went wrong on our side. Please try again.";

/**
 * Any thrown value as it is reported: a domain error by its class, a unique violation as 409, anything
 * else (logged, its message kept from the caller) as a generic 500.
 */
export function describeError(error: unknown): ErrorReport {
  const code = errorCode(error);
  if (error instanceof DomainError && code !== "INTERNAL_SERVER_ERROR") {
    const { message, details } = error;
    return { code, status: ERROR_STATUS[code], message, details, headers: headersOf(error) };
  }
  if (code === "CONFLICT") return errorReport(code, "A resource with these values already exists.");
  // The request's id is also in the answer's body and header: what a user reports finds this line.
  const requestId = currentRequestId();
  console.error(`[memgw] unhandled error${requestId ? ` (request ${requestId})` : ""}:`, error);
  return errorReport("INTERNAL_SERVER_ERROR", INTERNAL_MESSAGE);
}

/** The status any thrown value is reported with (see describeError), without reporting it. */
export function errorStatus(error: unknown): number {
  return ERROR_STATUS[errorCode(error)];
}

function errorCode(error: unknown): ErrorCode {
  if (error instanceof DomainError) {
    return DOMAIN_ERROR_CODES.find(([kind]) => error instanceof kind)?.[1] ?? "INTERNAL_SERVER_ERROR";
  }
  return isUniqueViolation(error) ? "CONFLICT" : "INTERNAL_SERVER_ERROR";
}

/** A report of an error the transport itself refuses with (a method not allowed, a route not found). */
export function errorReport(code: ErrorCode, message: string, headers?: Record<string, string>): ErrorReport {
  return { code, status: ERROR_STATUS[code], message, ...(headers ? { headers } : {}) };
}

/**
 * A field of a body's detail as the body itself names it (`body.options.repositories.0` →
 * `options.repositories.0`): what a form or a tool call, whose fields are the body's, shows.
 */
export function bodyFieldName(field: string): string {
  return field.replace(/^body\./, "");
}

function headersOf(error: DomainError): Record<string, string> | undefined {
  if (!(error instanceof RateLimitedError)) return undefined;
  return { ...(error.quota ? rateLimitHeaders(error.quota) : {}), "retry-after": String(error.retryAfterSeconds) };
}

export const ErrorBodySchema = named(
  z.object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      request_id: z
        .string()
        .optional()
        .describe("the request's id, also in the Request-Id header: quote it when you report a problem"),
    }),
  }),
  "Error",
);
