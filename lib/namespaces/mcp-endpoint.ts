import { publicUrl } from "@/lib/config";

const MCP_PATH = "/api/v1/mcp/";
// What namespace ids are made of (lib/ids): nothing that could end a path segment or start a query.
const NAMESPACE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** A namespace's MCP endpoint: the URL clients connect to, and the OAuth resource (RFC 8707) of its tokens. */
export function mcpEndpointUrl(namespaceId: string): string {
  // Encoded: the id may come from a request's path, and the URL goes into a header (WWW-Authenticate).
  return `${publicUrl()}${MCP_PATH}${encodeURIComponent(namespaceId)}`;
}

/** The namespace id of an MCP endpoint URL of this gateway, exactly as mcpEndpointUrl writes it; else null. */
export function namespaceIdOfResource(resource: unknown): string | null {
  const prefix = `${publicUrl()}${MCP_PATH}`;
  if (typeof resource !== "string" || !resource.startsWith(prefix)) return null;
  const namespaceId = resource.slice(prefix.length);
  return NAMESPACE_ID.test(namespaceId) ? namespaceId : null;
}

/**
 * Where the endpoint's Protected Resource Metadata (RFC 9728) is: the well-known path inserted before the
 * resource's path.
 */
export function protectedResourceMetadataUrl(namespaceId: string): string {
  const base = new URL(publicUrl());
  const resourcePath = `${base.pathname.replace(/\/$/, "")}${MCP_PATH}${encodeURIComponent(namespaceId)}`;
  return `${base.origin}/.well-known/oauth-protected-resource${resourcePath}`;
}
