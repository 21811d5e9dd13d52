import type { IncomingMessage, ServerResponse } from "node:http";
import { readBodyBytes } from "@/lib/http/body";
import { toErrorResponse } from "@/lib/http/envelope";
import { mcpEndpointUrl, namespaceIdOfResource } from "@/lib/namespaces/mcp-endpoint";
import { checkedOauthInputs, OAUTH_BODY_MAX_BYTES, OauthInputError } from "./inputs";
import { runNodeHandler } from "./node-bridge";
import { MCP_SCOPES, OAUTH_ROUTES, oauthErrorPage, oauthIssuer, oauthProvider } from "./provider";
import { screenRegistration } from "./registration";

let handler: ((request: IncomingMessage, response: ServerResponse) => Promise<void>) | undefined;

/**
 * A request to the authorization server (app/oauth, app/.well-known): handed to oidc-provider as the Node
 * request it expects, on the issuer's host. `path` replaces the request's own (RFC 8414's metadata path is
 * the provider's discovery document).
 */
export async function handleOauthRequest(request: Request, path?: string): Promise<Response> {
  const url = new URL(request.url);
  const route = path ?? url.pathname;
  try {
    const issuer = new URL(oauthIssuer());
    let body = checkedOauthInputs({
      path: route,
      search: url.search,
      headers: request.headers,
      body: ["GET", "HEAD"].includes(request.method) ? undefined : await readOauthBody(request),
    });
    if (body !== undefined && request.method === "POST" && route === OAUTH_ROUTES.registration) {
      const screened = await screenRegistration(request.headers, body);
      if ("refused" in screened) return screened.refused;
      body = screened.body;
    }
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
    if (error instanceof OauthInputError) return inputRefusal(error, route);
    return toErrorResponse(error);
  }
}

/** The body, up to OAUTH_BODY_MAX_BYTES (413 past it). */
function readOauthBody(request: Request): Promise<Buffer> {
  return readBodyBytes(
    request,
    OAUTH_BODY_MAX_BYTES,
    () => new OauthInputError("invalid_request", `The request body is larger than ${OAUTH_BODY_MAX_BYTES} bytes.`, 413),
  );
}

/**
 * A refused input, as the authorization server answers errors: a page for the person's browser on the
 * authorization endpoint (the client is not told: its redirect URI is not checked yet), the RFCs' JSON
 * error elsewhere.
 */
function inputRefusal(error: OauthInputError, route: string): Response {
  const headers = { "cache-control": "no-store" };
  if (route.startsWith(OAUTH_ROUTES.authorization)) {
    return new Response(oauthErrorPage(error.error, error.description), {
      status: error.status,
      headers: { ...headers, "content-type": "text/html; charset=utf-8" },
    });
  }
  return Response.json({ error: error.error, error_description: error.description }, { status: error.status, headers });
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
