import type { IncomingMessage, ServerResponse } from "node:http";
import { readBodyText } from "@/lib/http/body";
import { toErrorResponse } from "@/lib/http/envelope";
import { mcpEndpointUrl, namespaceIdOfResource } from "@/lib/namespaces/mcp-endpoint";
import { runNodeHandler } from "./node-bridge";
import { MCP_SCOPES, OAUTH_ROUTES, oauthIssuer, oauthProvider } from "./provider";
import { registrationRefusal } from "./registration";

let handler: ((request: IncomingMessage, response: ServerResponse) => Promise<void>) | undefined;

/**
 * A request to the authorization server (app/oauth, app/.well-known): handed to oidc-provider as the Node
 * request it expects, on the issuer's host. `path` replaces the request's own (RFC 8414's metadata path is
 * the provider's discovery document).
 */
export async function handleOauthRequest(request: Request, path?: string): Promise<Response> {
  try {
    const url = new URL(request.url);
    const issuer = new URL(oauthIssuer());
    const text = ["GET", "HEAD"].includes(request.method) ? undefined : await readBodyText(request);
    if (text !== undefined && request.method === "POST" && (path ?? url.pathname) === OAUTH_ROUTES.registration) {
      const refused = await registrationRefusal(request.headers, text);
      if (refused) return refused;
    }
    const body = text === undefined ? undefined : Buffer.from(text);
    const headers = new Headers(request.headers);
    headers.set("host", issuer.host);
    handler ??= oauthProvider().callback();
    return await runNodeHandler(handler, {
      method: request.method,
      url: (path ?? url.pathname) + url.search,
      headers,
      body,
      secure: issuer.protocol === "https:",
    });
  } catch (error) {
    return toErrorResponse(error);
  }
}

/**
 * The Protected Resource Metadata (RFC 9728) of the MCP endpoint at `resourcePath` (the path after the
 * well-known prefix), or a 404. Served for any well-formed namespace id without looking it up: whether a
 * namespace exists is for its members to know, and the document says nothing about it.
 */
export function protectedResourceMetadata(resourcePath: string[]): Response {
  const [api, version, mcp, id, ...rest] = resourcePath;
  const endpoint = api === "api" && version === "v1" && mcp === "mcp" && id && rest.length === 0;
  const namespaceId = endpoint ? namespaceIdOfResource(mcpEndpointUrl(id)) : null;
  if (!namespaceId) {
    return Response.json(
      { error: "not_found", error_description: "Protected resources here are namespaces' MCP endpoints." },
      { status: 404, headers: METADATA_HEADERS },
    );
  }
  return Response.json(
    {
      resource: mcpEndpointUrl(namespaceId),
      authorization_servers: [oauthIssuer()],
      scopes_supported: [MCP_SCOPES.read, MCP_SCOPES.write],
      bearer_methods_supported: ["header"],
      resource_name: "Memory Gateway MCP endpoint",
    },
    { headers: METADATA_HEADERS },
  );
}

// Public documents, read by MCP clients that may run in a browser.
const METADATA_HEADERS = {
  "access-control-allow-origin": "*",
  "cache-control": "public, max-age=300",
};
