import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { toErrorResponse } from "@/lib/api/envelope";
import { countKeyRequest, withRateLimitHeaders } from "@/lib/api/key-rate-limit";
import { validationError } from "@/lib/api/errors";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { McpPathParams } from "./schemas";
import { memoryMcpServer } from "./server";

/**
 * One MCP request (Streamable HTTP, stateless: every POST stands alone) to a namespace's endpoint.
 * The API key authenticates it like any API call: no key → 401; a namespace the key is not granted,
 * or of another organization → 404. Tools then run with that key's permissions and scopes.
 */
export async function handleMcpRequest(request: Request, namespaceId: string): Promise<Response> {
  let limitHeaders: Record<string, string> = {};
  try {
    const key = await authenticateApiKey(request.headers.get("authorization"));
    // The same per-key limit as the HTTP API: an agent's tool calls count with its application's requests.
    limitHeaders = await countKeyRequest(key);
    const params = McpPathParams.safeParse({ namespace_id: namespaceId });
    if (!params.success) throw validationError(params.error, "path");
    const namespace = await resolveTarget(key, params.data);
    const server = memoryMcpServer({ key, namespace, identityHeader: request.headers.get("x-identity-id") || undefined });
    // JSON replies rather than an event stream: every tool answers once, and the reply is complete when returned.
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return withRateLimitHeaders(await transport.handleRequest(request), limitHeaders);
    } finally {
      await server.close();
    }
  } catch (error) {
    return withRateLimitHeaders(toErrorResponse(error), limitHeaders);
  }
}
