import { z } from "zod";

/** The one table from error code to HTTP status (DESIGN.md §3). */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  REQUEST_HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  UPSTREAM_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  /** Where the problem is: `body.name`, `query.page_size`, `path.id`, `body.memories.3.content`. */
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what: string) => new ApiError("NOT_FOUND", `${what} not found.`);

export function validationError(error: z.ZodError, location: "body" | "query" | "path"): ApiError {
  const details = error.issues.map((issue) => ({
    field: [location, ...issue.path.map(String)].join("."),
    message: issue.message,
  }));
  const summary = details.map((d) => `${d.field}: ${d.message}`).join("; ");
  return new ApiError("BAD_REQUEST", `Invalid request ${location === "path" ? "path" : location}. ${summary}`, details);
}

export const ErrorBodySchema = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  }),
});
