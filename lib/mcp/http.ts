import * as streamableHttp from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { ApiKeyPrincipal } from "@/lib/auth/api-keys/api-key-principal";
import { authenticateApiKey, bearerValue } from "@/lib/auth/api-keys/authenticate-api-key";
import { countKeyRequest } from "@/lib/auth/key-rate-limit";
import { invalidRequest, UnauthenticatedError } from "@/lib/errors";
import { readBodyText } from "@/lib/http/body";
import { toErrorResponse } from "@/lib/http/envelope";
import { rateLimitHeaders, withRateLimitHeaders } from "@/lib/http/rate-limit-headers";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { authenticateAccessToken, InvalidTokenError } from "@/lib/oauth/connections";
import { MCP_SCOPES } from "@/lib/oauth/provider";
import { McpPathParams } from "@/lib/operations/catalogue";
import { protectedResourceMetadataUrl } from "@/lib/namespaces/mcp-endpoint";
import { memoryMcpServer } from "./server";

/**
 * One MCP request (Streamable HTTP, stateless: every POST stands alone) to a namespace's endpoint.
 * An API key authenticates it like any API call: no key → 401; a namespace the key is not granted, or of
 * another organization → 404. So does an OAuth access token of a connected client (lib/oauth), good on
 * this one endpoint only. Tools then run with that key's permissions and scopes. Every 401 names the
 * endpoint's Protected Resource Metadata, where OAuth clients find how to get a token.
 */
export async function handleMcpRequest(request: Request, namespaceId: string): Promise<Response> {
  let limitHeaders: Record<string, string> = {};
  try {
    const key = await authenticateMcpRequest(request.headers.get("authorization"), namespaceId);
    // The same per-key limit as the HTTP API: an agent's tool calls count with its application's requests.
    const quota = await countKeyRequest(key);
    if (quota) limitHeaders = rateLimitHeaders(quota);
    const params = McpPathParams.safeParse({ namespace_id: namespaceId });
    if (!params.success) throw invalidRequest(params.error.issues, "path");
    const namespace = await resolveTarget(key, params.data);
    const message = await readMessage(request);
    if (message instanceof Response) return withRateLimitHeaders(message, limitHeaders);
    const server = memoryMcpServer({
      key,
      namespace,
      identityHeader: request.headers.get("x-identity-id") || key.defaultIdentityId,
      method: methodOf(message.parsed),
    });
    // JSON replies rather than an event stream: every tool answers once, and the reply is complete when returned.
    const transport = new streamableHttp.WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      // The transport still checks Accept (406) and Content-Type (415) before it looks at the message.
      return withRateLimitHeaders(await transport.handleRequest(request, { parsedBody: message.parsed }), limitHeaders);
    } finally {
      await server.close();
    }
  } catch (error) {
    const response = withRateLimitHeaders(toErrorResponse(error), limitHeaders);
    if (error instanceof UnauthenticatedError) {
      response.headers.set("www-authenticate", bearerChallenge(namespaceId, error));
    }
    return response;
  }
}

const UNAUTHORIZED_HINT =
  "Send an API key as `Authorization: Bearer mgw_…`, " +
  "or connect with OAuth (the endpoint's resource metadata says how).";

/** An API key (`mgw_…`) or an OAuth access token issued for this endpoint. */
async function authenticateMcpRequest(authorization: string | null, namespaceId: string): Promise<ApiKeyPrincipal> {
  const credential = bearerValue(authorization, UNAUTHORIZED_HINT);
  if (credential.startsWith("mgw_")) return authenticateApiKey(authorization);
  return authenticateAccessToken(credential, namespaceId);
}

/**
 * The 401's challenge (RFC 6750 with RFC 9728's `resource_metadata`): where to learn how to get a token,
 * the scopes to ask for, and `invalid_token` when a token was sent and refused.
 */
function bearerChallenge(namespaceId: string, error: UnauthenticatedError): string {
  const parameters: Record<string, string> = {
    resource_metadata: protectedResourceMetadataUrl(namespaceId),
    scope: `${MCP_SCOPES.read} ${MCP_SCOPES.write}`,
  };
  if (error instanceof InvalidTokenError) {
    parameters.error = "invalid_token";
    parameters.error_description = error.message;
  }
  return `Bearer ${Object.entries(parameters)
    .map(([name, value]) => `${name}="${value.replace(/["\\]/g, "")}"`)
    .join(", ")}`;
}

/**
 * The POST's JSON-RPC message, read here rather than by the transport so that a batch is refused. The SDK
 * accepts a JSON array of up to 100 messages in one POST, and every tools/call in it would run on the one
 * count this request made against the key's rate limit. MCP has no batches since protocol version
 * 2025-06-18 (SDK clients never send one), so a POST carries one message: one request, one count.
 * The body limit is the API's (413 in the envelope, like every route). Malformed JSON and batches are
 * refused as JSON-RPC errors, as the transport refuses a malformed message: the client speaks JSON-RPC
 * here, and its library can show the error's message.
 */
async function readMessage(request: Request): Promise<{ parsed: unknown } | Response> {
  const text = await readBodyText(request);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return jsonRpcError(-32700, "Parse error: Invalid JSON");
  }
  if (Array.isArray(parsed)) {
    return jsonRpcError(
      -32600,
      "Invalid Request: JSON-RPC batches are not supported (MCP removed them in protocol version 2025-06-18); " +
        "send one message per POST.",
    );
  }
  return { parsed };
}

/** The JSON-RPC method a message calls, when it is a request or notification. */
function methodOf(message: unknown): string | undefined {
  const method = (message as { method?: unknown } | null)?.method;
  return typeof method === "string" ? method : undefined;
}

/** A 400 as the transport answers one: a JSON-RPC error with a null id (the message's id is unknown or ambiguous). */
function jsonRpcError(code: number, message: string): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code, message }, id: null },
    { status: 400, headers: { "cache-control": "no-store" } },
  );
}
