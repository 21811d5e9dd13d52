// POST /api/v1/mcp/{namespace_id} — the namespace's MCP endpoint (Streamable HTTP, stateless)
import { ApiError } from "@/lib/api/errors";
import { errorResponse } from "@/lib/api/envelope";
import { handleMcpRequest } from "@/lib/mcp/http";

export const dynamic = "force-dynamic";

export async function POST(request: Request, context: { params: Promise<{ namespaceId: string }> }) {
  return handleMcpRequest(request, (await context.params).namespaceId);
}

// Stateless: there is no server-to-client stream to open (GET) and no session to end (DELETE).
function methodNotAllowed(request: Request) {
  return errorResponse(
    new ApiError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here; MCP clients POST their messages (stateless Streamable HTTP).`, undefined, { allow: "POST" }),
  );
}

export { methodNotAllowed as GET, methodNotAllowed as DELETE, methodNotAllowed as PUT, methodNotAllowed as PATCH };
