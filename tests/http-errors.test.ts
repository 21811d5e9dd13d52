// The one mapping from domain errors to HTTP: status, envelope and headers.
import { afterEach, expect, test, vi } from "vitest";
import {
  ConflictError,
  ForbiddenError,
  InvalidError,
  invalidRequest,
  NotFoundError,
  notFound,
  PayloadTooLargeError,
  RateLimitedError,
  UnauthenticatedError,
  UnavailableError,
  UpstreamError,
} from "@/lib/errors";
import { toErrorResponse } from "@/lib/http/envelope";
import { describeError, errorStatus } from "@/lib/http/errors";

afterEach(() => vi.restoreAllMocks());

test.each([
  [new InvalidError("bad"), 400, "BAD_REQUEST"],
  [new UnauthenticatedError("who?"), 401, "UNAUTHORIZED"],
  [new ForbiddenError("no"), 403, "FORBIDDEN"],
  [new NotFoundError("gone"), 404, "NOT_FOUND"],
  [new ConflictError("twice"), 409, "CONFLICT"],
  [new PayloadTooLargeError("big"), 413, "PAYLOAD_TOO_LARGE"],
  [new RateLimitedError("slow down", 7), 429, "RATE_LIMITED"],
  [new UpstreamError("provider down"), 502, "UPSTREAM_ERROR"],
  [new UnavailableError("loading"), 503, "SERVICE_UNAVAILABLE"],
])("%o → %i %s in the envelope, its message kept", async (error, status, code) => {
  const response = toErrorResponse(error);
  expect(response.status).toBe(status);
  expect(errorStatus(error)).toBe(status);
  expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
  expect(await response.json()).toEqual({ success: false, error: { code, message: error.message } });
});

test("an invalid input's details name each field; notFound words the message", async () => {
  const invalid = invalidRequest([{ path: ["memories", 3, "content"], message: "must not be empty" }], "body");
  expect(await toErrorResponse(invalid).json()).toEqual({
    success: false,
    error: {
      code: "BAD_REQUEST",
      message: "Invalid request body. body.memories.3.content: must not be empty",
      details: [{ field: "body.memories.3.content", message: "must not be empty" }],
    },
  });
  const missing = describeError(notFound("Namespace ns_1"));
  expect(missing).toMatchObject({ status: 404, message: "Namespace ns_1 not found." });
});

test("a rate limit says when to retry, and the quota when it has one", () => {
  const bare = toErrorResponse(new RateLimitedError("wait", 30));
  expect(bare.headers.get("retry-after")).toBe("30");
  expect(bare.headers.get("ratelimit-limit")).toBeNull();
  const quota = toErrorResponse(new RateLimitedError("wait", 12, { limit: 5, remaining: 0, resetSeconds: 12 }));
  expect(Object.fromEntries([...quota.headers].filter(([name]) => /^(retry-after|ratelimit-)/.test(name)))).toEqual({
    "retry-after": "12",
    "ratelimit-limit": "5",
    "ratelimit-remaining": "0",
    "ratelimit-reset": "12",
  });
});

test("a unique violation is a 409; anything else a logged 500 that discloses nothing", async () => {
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  expect(describeError(Object.assign(new Error("Unique constraint failed"), { code: "P2002" }))).toMatchObject({
    status: 409,
    code: "CONFLICT",
    message: "A resource with these values already exists.",
  });
  expect(logged).not.toHaveBeenCalled();
  const response = toErrorResponse(new Error('relation "audit_logs" does not exist'));
  expect(response.status).toBe(500);
  expect(await response.json()).toEqual({
    success: false,
    error: { code: "INTERNAL_SERVER_ERROR", message: "Something went wrong on our side. Please try again." },
  });
  expect(logged).toHaveBeenCalledOnce();
});
