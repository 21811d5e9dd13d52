/** One field a request got wrong: `body.content`, `query.page_size`, `header.Idempotency-Key`, … */
export interface ErrorDetail {
  field: string;
  message: string;
}

/**
 * Every failure of a call: an error answer of the API (`status` and `code` as the API sent them), or no answer
 * at all (`status` null: ConnectionError, TimeoutError). `requestId` is the server's `Request-Id`, to quote
 * when asking about a request.
 */
export class MemoryGatewayError extends Error {
  readonly status: number | null;
  readonly code: string;
  readonly details: ErrorDetail[];
  readonly requestId: string | null;

  constructor(
    message: string,
    init: { status: number | null; code: string; details?: ErrorDetail[]; requestId?: string | null },
  ) {
    super(message);
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.requestId = init.requestId ?? null;
  }
}

/** 400: a field is missing or wrong; `details` names each. */
export class BadRequestError extends MemoryGatewayError {}
/** 401: no key, or an invalid, revoked or expired one. */
export class AuthenticationError extends MemoryGatewayError {}
/** 403: the key lacks the permission, or the request goes beyond its scopes. */
export class PermissionDeniedError extends MemoryGatewayError {}
/** 404: no such resource for this key (missing, another organization's, or not granted). */
export class NotFoundError extends MemoryGatewayError {}
/** 409: a name already used, or an `Idempotency-Key` used for another request. */
export class ConflictError extends MemoryGatewayError {}
/** 413: the body (5 MiB) or the document is too large. */
export class PayloadTooLargeError extends MemoryGatewayError {}
/** 415: a document of a type the gateway does not read. */
export class UnsupportedMediaTypeError extends MemoryGatewayError {}
/** 429: the key's requests this minute are used up; `retryAfter` says in how many seconds to try again. */
export class RateLimitError extends MemoryGatewayError {
  readonly retryAfter: number | null;
  constructor(
    message: string,
    init: ConstructorParameters<typeof MemoryGatewayError>[1] & { retryAfter: number | null },
  ) {
    super(message, init);
    this.retryAfter = init.retryAfter;
  }
}
/** 5xx: the server failed (500), an upstream model failed (502), or the server is not ready (503). */
export class ServerError extends MemoryGatewayError {}
/** No answer: the connection failed or was cut. */
export class ConnectionError extends MemoryGatewayError {}
/** No answer within the call's timeout. */
export class TimeoutError extends MemoryGatewayError {}

const BY_STATUS: Record<number, typeof MemoryGatewayError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  415: UnsupportedMediaTypeError,
};

/** The error for an answer that is not a success, read from its envelope (or, lacking one, from its status). */
export async function errorFromResponse(response: Response): Promise<MemoryGatewayError> {
  const requestId = response.headers.get("request-id");
  const text = await response.text().catch(() => "");
  let envelope: { error?: { code?: unknown; message?: unknown; details?: unknown; request_id?: unknown } } = {};
  try {
    envelope = JSON.parse(text);
  } catch {
    // A proxy's HTML page or an empty body: the status alone says what happened.
  }
  const error = envelope?.error ?? {};
  const message =
    typeof error.message === "string" ? error.message : `HTTP ${response.status} ${response.statusText}`.trim();
  const init = {
    status: response.status,
    code: typeof error.code === "string" ? error.code : `HTTP_${response.status}`,
    details: Array.isArray(error.details) ? (error.details as ErrorDetail[]) : [],
    requestId: requestId ?? (typeof error.request_id === "string" ? error.request_id : null),
  };
  if (response.status === 429) return new RateLimitError(message, { ...init, retryAfter: retryAfterSeconds(response) });
  if (response.status >= 500) return new ServerError(message, init);
  return new (BY_STATUS[response.status] ?? MemoryGatewayError)(message, init);
}

/** `Retry-After` in seconds (a number of seconds or an HTTP date), or null without one. */
export function retryAfterSeconds(response: Response): number | null {
  const value = response.headers.get("retry-after");
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}
