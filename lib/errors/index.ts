// The domain's errors: what went wrong, in the domain's words. Each transport says it its own way: the
// HTTP API as a status and the error envelope (lib/http/errors.ts, the one table), MCP as a tool error
// result, the CLI as a message and an exit code.

/** One problem with one input field: `body.memories.3.content`, `query.page_size`, `password`. */
export interface ErrorDetail {
  field: string;
  message: string;
}

/** A refusal or failure the domain foresaw, with a message written for the caller. */
export abstract class DomainError extends Error {
  constructor(
    message: string,
    readonly details?: ErrorDetail[],
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The input is wrong: `details` names the fields when it is about some. */
export class InvalidError extends DomainError {}

/** No credentials, or credentials that do not authenticate anyone. */
export class UnauthenticatedError extends DomainError {}

/** Authenticated, but not allowed to do this. */
export class ForbiddenError extends DomainError {}

/** No such thing, or none the caller may see. */
export class NotFoundError extends DomainError {}

export const notFound = (what: string) => new NotFoundError(`${what} not found.`);

/**
 * A namespace the caller cannot see (`what`: "Namespace ns_…"): one that does not exist, of another organization,
 * or not granted to the key or member, all alike (saying which would tell another organization's ids apart). The
 * message says how a grant is made, since a key made before its namespace is the usual newcomer's case.
 */
export const namespaceNotFound = (what: string, ungrantedId?: string) => {
  const message =
    `${what} not found. A key or member reaches only the namespaces granted to it: an owner or admin grants ` +
    "a namespace from its page in the console (Permissions).";
  return ungrantedId === undefined ? new NotFoundError(message) : new UngrantedNamespaceError(message, ungrantedId);
};

/**
 * namespaceNotFound for a namespace of the key's own organization that the key is not granted: the same answer,
 * and the activity log keeps the namespace (the console's keys page shows the refusals, with the grant to make).
 */
export class UngrantedNamespaceError extends NotFoundError {
  constructor(
    message: string,
    readonly namespaceId: string,
  ) {
    super(message);
  }
}

/** The change would contradict what exists: a duplicate name, the last owner leaving. */
export class ConflictError extends DomainError {}

/** The input is larger than accepted. */
export class PayloadTooLargeError extends DomainError {}

/** The input is of a type that cannot be read (a document's format): the message lists the supported ones. */
export class UnsupportedMediaTypeError extends DomainError {}

/** The counts of a rate limit, for a caller who wants to know where it stands. */
export interface RateLimitQuota {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** Too many attempts: try again in `retryAfterSeconds`. */
export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    /** The limit that was reached, when the caller is told its quota on every answer. */
    readonly quota?: RateLimitQuota,
  ) {
    super(message);
  }
}

/** A provider the domain depends on (the embedding or chat model) failed. */
export class UpstreamError extends DomainError {}

/** Something needed is not available yet, or could not be started. */
export class UnavailableError extends DomainError {}

/**
 * The server is too busy to take this request now (no database connection, transaction or transfer slot
 * came free in time): nothing was changed, and the same request may be sent again in `retryAfterSeconds`.
 * Answered 503 with `Retry-After`; its message is safe to show anyone.
 */
export class BusyError extends UnavailableError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

type Issue = { readonly path: readonly PropertyKey[]; readonly message: string };

/**
 * The one formatting of zod issues: a detail per issue whose field is the issue's path, dotted, after
 * `prefix` when given (`body` + `memories.3.content`). An issue about the whole input has the field
 * `prefix`, or "" without one.
 */
export function issueDetails(issues: readonly Issue[], prefix?: string): ErrorDetail[] {
  return issues.map((issue) => ({
    field: [...(prefix ? [prefix] : []), ...issue.path.map(String)].join("."),
    message: issue.message,
  }));
}

/** Details as a form shows them: field → message, an issue about the whole input under `form`. */
export function fieldMessages(details: readonly ErrorDetail[]): Record<string, string> {
  return Object.fromEntries(details.map((detail) => [detail.field || "form", detail.message]));
}

/** A request's part that failed its schema, every problem named: `Invalid request body. body.name: …; …`. */
export function invalidRequest(issues: readonly Issue[], location: "body" | "query" | "path"): InvalidError {
  const details = issueDetails(issues, location);
  const summary = details.map((detail) => `${detail.field}: ${detail.message}`).join("; ");
  return new InvalidError(`Invalid request ${location}. ${summary}`, details);
}
