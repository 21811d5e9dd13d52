// POST /api/v1/mcp/{namespace_id} — the namespace's MCP endpoint (Streamable HTTP, stateless)
import { apiRoute } from "@/lib/http/methods";
import { handleMcpRequest } from "@/lib/mcp/http";

export const dynamic = "force-dynamic";

async function mcpRoute(request: Request, context: { params: Promise<{ namespaceId: string }> }) {
  return handleMcpRequest(request, (await context.params).namespaceId);
}

// Stateless: there is no server-to-client stream to open (GET) and no session to end (DELETE).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(
  { POST: mcpRoute },
  { notAllowed: "MCP clients POST their messages (stateless Streamable HTTP: no stream to open, no session to end)." },
);
