import type { ApiKeyPrincipal } from "@/lib/auth/api-keys/api-key-principal";
import { authenticateApiKey } from "@/lib/auth/api-keys/authenticate-api-key";
import { countKeyRequest } from "@/lib/auth/key-rate-limit";
import { readJsonBody } from "@/lib/http/body";
import { fileResponse } from "@/lib/http/file-body";
import { readUploadBody } from "@/lib/http/form-body";
import { takeTransferSlot, type ReleaseSlot } from "@/lib/http/transfer-slots";
import { discardUploads } from "@/lib/http/uploaded-file";
import { API_HEADERS, successResponse, toErrorResponse } from "@/lib/http/envelope";
import { IDEMPOTENCY_HEADER, idempotencyKeyOf, idempotent, requestFingerprint } from "@/lib/http/idempotency";
import { ndjsonRequestBody, ndjsonResponse } from "@/lib/http/ndjson";
import { rateLimitHeaders, withRateLimitHeaders } from "@/lib/http/rate-limit-headers";
import { timedStage, withStageTimes } from "@/lib/http/server-timing";
import { memoryIdsShownIn } from "@/lib/memory/store/deletion";
import { rollBackWritesOfKey } from "@/lib/memory/store/write-intents";
import type { Operation } from "@/lib/operations/operation";
import { assertOperationAllowed, inputPasses, runOperation, type OperationInput } from "@/lib/operations/run";

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/**
 * The one request wrapper of the HTTP API: authenticates the API key from the `Authorization` header,
 * counts the request against the key's rate limit (429 past it; `RateLimit-*` headers on every answer),
 * runs the catalogue's operation (permission, validation, function, response schema, activity row; see
 * runOperation) and answers in the envelope, errors included. An operation whose HTTP binding is `idempotent`
 * honours the `Idempotency-Key` header: a retry of the same request within 24 hours gets the first answer. With
 * MEMGW_SERVER_TIMING=1, every answer says where its time went (lib/http/server-timing.ts).
 */
export function withApiKey(operation: Operation) {
  return async function route(request: Request, routeContext: RouteContext): Promise<Response> {
    const timing = withStageTimes(() => respond(operation, request, routeContext));
    const response = await timing.result;
    const header = timing.header();
    if (header) response.headers.set("server-timing", header);
    return response;
  };
}

async function respond(operation: Operation, request: Request, routeContext: RouteContext): Promise<Response> {
  const started = performance.now();
  let limitHeaders: Record<string, string> = {};
  // An upload's turn (lib/http/transfer-slots.ts) and its spooled file, held until it is answered.
  const upload: { release?: ReleaseSlot; body?: unknown } = {};
  try {
    const key = await timedStage("auth", async () => {
      const authenticated = await authenticateApiKey(request.headers.get("authorization"));
      const quota = await countKeyRequest(authenticated);
      if (quota) limitHeaders = rateLimitHeaders(quota);
      return authenticated;
    });
    const input: OperationInput = {
      params: (await routeContext?.params) ?? {},
      query: queryParameters(new URL(request.url).searchParams),
      body: () => {
        const rules = operation.upload;
        if (!rules) return timedStage("body", () => readJsonBody(request));
        return timedStage("body", async () => {
          upload.release = await takeTransferSlot(key.orgId);
          upload.body = await readUploadBody(request, rules);
          return upload.body;
        });
      },
      bodyStream: () => ndjsonRequestBody(request),
    };
    if (operation.http.idempotent && request.headers.has(IDEMPOTENCY_HEADER)) {
      const response = await idempotentRequest(operation, key, request, input, started);
      return withRateLimitHeaders(response, limitHeaders);
    }
    const result = await runOperation(operation, key, input, started);
    if (result.file) return fileResponse(result.file, result.status, limitHeaders);
    if (result.stream) {
      const { items, filename } = result.stream;
      return await ndjsonResponse(items, {
        status: result.status,
        headers: { ...API_HEADERS, ...limitHeaders },
        filename,
      });
    }
    const response = await timedStage("serialize", async () =>
      successResponse(result.data, result.status, result.pagination),
    );
    return withRateLimitHeaders(response, limitHeaders);
  } catch (error) {
    return withRateLimitHeaders(toErrorResponse(error), limitHeaders);
  } finally {
    upload.release?.();
    await discardUploads(upload.body);
  }
}

/**
 * A request with an Idempotency-Key to an operation that honours it (answered in JSON, never streamed). The
 * key's permission comes first: a key that may not do this has no body read and no stored answer replayed.
 * Then the header's value (400), and the body, read once for the request's fingerprint and the operation;
 * input the operation refuses is answered 400 before the key is claimed or compared.
 */
async function idempotentRequest(
  operation: Operation,
  key: ApiKeyPrincipal,
  request: Request,
  input: OperationInput,
  started: number,
): Promise<Response> {
  assertOperationAllowed(operation, key);
  const idempotencyKey = idempotencyKeyOf(request);
  const body = operation.body ? await input.body?.() : undefined;
  const run = () => runOperation(operation, key, { ...input, body: async () => body }, started);
  if (!inputPasses(operation, { ...input, body })) {
    // Bad input is refused (400) without claiming the key, whatever it was used for: a corrected request may.
    const result = await run();
    return successResponse(result.data, result.status, result.pagination);
  }
  const fingerprint = requestFingerprint({
    method: operation.http.method,
    route: operation.http.path,
    params: input.params,
    query: input.query,
    body,
    scopes: key.scopes,
  });
  return idempotent(
    { orgId: key.orgId, apiKeyId: key.keyId },
    idempotencyKey,
    fingerprint,
    async () => {
      try {
        const result = await run();
        return successResponse(result.data, result.status, result.pagination);
      } catch (error) {
        return toErrorResponse(error);
      }
    },
    { recover: rollBackWritesOfKey, idsShownIn: memoryIdsShownIn },
  );
}

/** The query string as the operation's input: a repeated parameter keeps every value, in order. */
export function queryParameters(searchParams: URLSearchParams): Record<string, string | string[]> {
  // fromEntries defines own properties: a parameter named `__proto__` is a parameter, not a prototype.
  return Object.fromEntries(
    [...new Set(searchParams.keys())].map((name) => {
      const values = searchParams.getAll(name);
      return [name, values.length === 1 ? values[0] : values];
    }),
  );
}
