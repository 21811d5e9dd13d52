// A raw MCP request with a bearer token, as any client sends it over Streamable HTTP: the OAuth tests use it to
// see whether a token opens the endpoint (in-process through the router, or against a running server).

/** How a request is sent: `fetch` to a running server, or the in-process router (./api.ts routeRequest). */
export type Send = (request: Request) => Promise<Response>;

/** POSTs `tools/list` to an MCP endpoint with `token` as the bearer; the response, its body unread. */
export function mcpToolsList(endpoint: string, token: string, send: Send = fetch): Promise<Response> {
  return send(
    new Request(endpoint, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }),
  );
}

/** The status of `tools/list` with `token`; its body is read to the end (a connection left unread stays busy). */
export async function mcpToolsListStatus(endpoint: string, token: string, send: Send = fetch): Promise<number> {
  const response = await mcpToolsList(endpoint, token, send);
  await response.arrayBuffer();
  return response.status;
}
