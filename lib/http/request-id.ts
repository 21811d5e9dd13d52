import { AsyncLocalStorage } from "node:async_hooks";

/** The response header naming the request (and the incoming headers whose id is kept). */
export const REQUEST_ID_HEADER = "Request-Id";
const INCOMING_HEADERS = ["request-id", "x-request-id"];

/**
 * An id a proxy in front or the client gave the request is kept, so that one id follows it through their
 * logs and ours; it must look like an id (no spaces or control characters, at most 128 characters) to be
 * written to a log line and a header unchanged. Otherwise the gateway makes one.
 */
const VALID_INCOMING = /^[A-Za-z0-9._:-]{1,128}$/;

const current = new AsyncLocalStorage<string>();

/** The request's id: a valid `Request-Id` or `X-Request-Id` it came with, or a new `req_…`. */
export function requestIdOf(request: Request): string {
  for (const name of INCOMING_HEADERS) {
    const value = request.headers.get(name)?.trim();
    if (value && VALID_INCOMING.test(value)) return value;
  }
  return `req_${Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("base64url")}`;
}

/** Runs `work` as the request with this id: its error bodies and log lines say the id. */
export function runAsRequest<T>(id: string, work: () => T): T {
  return current.run(id, work);
}

/** The id of the request being answered, if any (a console action or a CLI command has none). */
export function currentRequestId(): string | undefined {
  return current.getStore();
}
