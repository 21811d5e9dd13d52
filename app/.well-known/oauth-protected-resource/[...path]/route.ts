// GET /.well-known/oauth-protected-resource/api/v1/mcp/{namespace_id} — an MCP endpoint's metadata (RFC 9728).
import { protectedResourceMetadata } from "@/lib/oauth/http";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: { params: Promise<{ path: string[] }> }) {
  return protectedResourceMetadata((await context.params).path);
}
