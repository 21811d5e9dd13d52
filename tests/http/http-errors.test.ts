// The one mapping from domain errors to HTTP: status, envelope and headers.
import { afterEach, describe, expect, test, vi } from "vitest";
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
import { apiRoute, withRequestId } from "@/lib/http/methods";

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

describe("Request-Id", () => {
  const request = (headers: Record<string, string> = {}, method = "GET") =>
    new Request("http://localhost/api/v1/things", { method, headers });
  const route = apiRoute({
    GET: () => Response.json({ success: true, data: {} }),
    POST: () => toErrorResponse(new NotFoundError("Thing not found.")),
    PATCH: () => {
      throw new Error('relation "things" does not exist');
    },
  });

  test("every answer names its request: success, refusal, 405, OPTIONS; each a new req_ id", async () => {
    const answers = await Promise.all([
      route.GET(request(), {}),
      route.POST(request({}, "POST"), {}),
      route.DELETE(request({}, "DELETE"), {}),
      route.OPTIONS(request({}, "OPTIONS"), {}),
    ]);
    const ids = answers.map((response) => response.headers.get("request-id"));
    for (const id of ids) expect(id).toMatch(/^req_[\w-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(answers.map((response) => response.status)).toEqual([200, 404, 405, 204]);
    expect((await answers[0].json()).error).toBeUndefined();
    expect((await answers[1].json()).error).toEqual({
      code: "NOT_FOUND",
      message: "Thing not found.",
      request_id: ids[1],
    });
    expect((await answers[2].json()).error).toMatchObject({ code: "METHOD_NOT_ALLOWED", request_id: ids[2] });
  });

  test("a failure the handler did not answer is a 500 in the envelope, logged with the same id", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await route.PATCH(request({}, "PATCH"), {});
    const id = response.headers.get("request-id")!;
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      success: false,
      error: {
        code: "INTERNAL_SERVER_ERROR",
        message: "Something went wrong on our side. Please try again.",
        request_id: id,
      },
    });
    expect(logged).toHaveBeenCalledOnce();
    expect(logged.mock.calls[0][0]).toBe(`[memgw] unhandled error (request ${id}):`);
  });

  test("an id the request came with (Request-Id, else X-Request-Id) is kept when it looks like one", async () => {
    const answer = (headers: Record<string, string>) => route.POST(request(headers, "POST"), {});
    const kept = await answer({ "x-request-id": "lb-7f3a.42:9" });
    expect(kept.headers.get("request-id")).toBe("lb-7f3a.42:9");
    expect((await kept.json()).error.request_id).toBe("lb-7f3a.42:9");
    expect((await answer({ "request-id": "mine-1", "x-request-id": "proxy-1" })).headers.get("request-id")).toBe(
      "mine-1",
    );
    for (const bad of ["two words", "x".repeat(129), "line\u0001break", ""]) {
      expect((await answer({ "x-request-id": bad })).headers.get("request-id"), bad).toMatch(/^req_/);
    }
  });

  test("outside a request (a console action, the CLI) errors carry no id and the log line says none", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await toErrorResponse(new Error("boom")).json()).toMatchObject({ error: { code: "INTERNAL_SERVER_ERROR" } });
    expect(logged.mock.calls[0][0]).toBe("[memgw] unhandled error:");
    const wrapped = withRequestId(() => Response.redirect("http://localhost/elsewhere", 303));
    const redirect = await wrapped(request(), {});
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get("request-id")).toMatch(/^req_/);
  });
});
