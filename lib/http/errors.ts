import { z } from "zod";
import {
  BusyError,
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
  if (code === "SERVICE_UNAVAILABLE") {
    // Saturation, not a fault: a line to see it by, without the stack of an unhandled error. A deadlock or a
    // serialization failure may be a lock-ordering bug as well: those are logged whole.
    if (isLockConflict(error)) console.error("[memgw] lock conflict, answered 503:", error);
    else console.warn(`[memgw] busy, answered 503: ${(error as Error).message?.split("\n")[0]}`);
    return describeError(new BusyError(BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS));
  }
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
  if (isUniqueViolation(error)) return "CONFLICT";
  return isSaturation(error) ? "SERVICE_UNAVAILABLE" : "INTERNAL_SERVER_ERROR";
}

// Not "nothing was changed": the refused transaction rolled back, but a request that commits in steps (adding a
// member to a new account) may have finished an earlier one; a retry converges, as an Idempotency-Key one does.
export const BUSY_MESSAGE = "The server is too busy to finish this request now. Try again shortly.";
/** What a request refused for saturation is told to wait: long enough for a burst of writes to drain. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

// Prisma's codes for a transaction that could not start (or ran out of time) and a pool that had no connection
// in time, and a write conflict or deadlock it asks to retry. Each happens only under load; the request changed
// nothing (its transaction rolled back), so it is answered 503 with Retry-After, never 500.
const PRISMA_SATURATION_CODES = new Set(["P2024", "P2028", "P2034"]);
// PostgreSQL's (SQLSTATE) for the same, reached through either adapter or a raw statement: serialization failure,
// deadlock, lock not available, too many connections, cannot connect now.
const POSTGRES_SATURATION_CODES = new Set(["40001", "40P01", "55P03", "53300", "57P03"]);
// node-postgres's pool (connectionTimeoutMillis) and its client when connecting takes too long.
const POOL_TIMEOUT_MESSAGES = /timeout exceeded when trying to connect|Connection terminated due to connection timeout/;

/**
 * Whether a thrown value says the database was too busy (see the codes above), looking through the causes
 * Prisma's driver adapters and our own wrappers chain.
 */
export function isSaturation(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && typeof cause === "object" && depth < 5; depth += 1) {
    const { code, originalCode, kind, message, meta } = cause as Record<string, unknown> & {
      meta?: { code?: unknown };
    };
    if (typeof code === "string" && (PRISMA_SATURATION_CODES.has(code) || POSTGRES_SATURATION_CODES.has(code))) {
      return true;
    }
    // A driver adapter's error (DriverAdapterError's cause): its kind, or the database's own code.
    if (kind === "TransactionWriteConflict" || kind === "TooManyConnections") return true;
    if (typeof originalCode === "string" && POSTGRES_SATURATION_CODES.has(originalCode)) return true;
    if (typeof meta?.code === "string" && POSTGRES_SATURATION_CODES.has(meta.code)) return true;
    if (typeof message === "string" && POOL_TIMEOUT_MESSAGES.test(message)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

const LOCK_CONFLICT_CODES = new Set(["P2034", "40P01", "40001"]);

/** A deadlock or serialization failure, anywhere along the error's causes (also reported as saturation). */
function isLockConflict(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && typeof cause === "object" && depth < 5; depth += 1) {
    const { code, originalCode, kind, meta } = cause as Record<string, unknown> & { meta?: { code?: unknown } };
    if (kind === "TransactionWriteConflict") return true;
    if ([code, originalCode, meta?.code].some((c) => typeof c === "string" && LOCK_CONFLICT_CODES.has(c))) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
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
  if (error instanceof BusyError) return { "retry-after": String(error.retryAfterSeconds) };
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
