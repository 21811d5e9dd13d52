// An MCP client connects with nothing but the namespace's endpoint URL: the official SDK client, with its
// OAuth client provider, discovers the gateway's authorization server from a 401, registers itself, sends the
// person to the console's consent page (this browser), gets its tokens and calls `recall`. Then the person
// revokes it on the API keys page and its next request is a 401.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { expect, test } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config";
import { expectNoSidewaysScroll, openPage, signInOnce, unique } from "./console";

const REDIRECT_URI = "http://localhost:8976/callback";

/** What an MCP client keeps of its OAuth state; the authorization URL is where it would open a browser. */
class ClientState implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  readonly redirectUrl = REDIRECT_URI;
  readonly clientMetadata = {
    client_name: "E2E Desktop Agent",
    redirect_uris: [REDIRECT_URI],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  clientInformation = () => this.information;
  saveClientInformation = (information: OAuthClientInformationMixed) => void (this.information = information);
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => void (this.saved = tokens);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier;
}

test("an MCP client connects with the endpoint URL alone: consent in the console, recall, then revoked", async ({
  page,
  request,
  baseURL,
}) => {
  // The bootstrap owner (playwright.config.ts) and a namespace made with the bootstrap key.
  await signInOnce(page, "e2e@example.com", "an e2e password");
  const namespaceName = `travel-notes-${unique()}`;
  const created = await request.post("/api/v1/namespaces", {
    headers: { authorization: `Bearer ${E2E_API_KEY}` },
    data: { name: namespaceName },
  });
  const namespace = (await created.json()).data as { id: string; mcp_endpoint_url: string };
  expect(namespace.mcp_endpoint_url).toBe(`${baseURL}/api/v1/mcp/${namespace.id}`);

  // The client knows the URL only: its first request is a 401 that leads it to the authorization server.
  const state = new ClientState();
  const endpoint = new URL(namespace.mcp_endpoint_url);
  await expect(
    new Client({ name: "e2e-agent", version: "1.0.0" }).connect(
      new StreamableHTTPClientTransport(endpoint, { authProvider: state }),
    ),
  ).rejects.toBeInstanceOf(UnauthorizedError);
  expect(state.information?.client_id).toBeTruthy();

  // The browser: the consent page names the client and the namespace, and offers read or read and write.
  let callback: URL | undefined;
  await page.route(`${REDIRECT_URI}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ contentType: "text/html", body: "<p>You can close this window.</p>" });
  });
  await page.goto(state.authorizationUrl!.toString());
  await expect(page.getByTestId("consent-title")).toHaveText(`Connect E2E Desktop Agent to ${namespaceName}?`);
  await expect(page.getByText("localhost:8976")).toBeVisible();
  await expect(page.getByLabel(/^Read and write/)).toBeChecked();
  await page.screenshot({ path: "test-results/screenshots/consent-1280.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, "the consent page");
  await page.screenshot({ path: "test-results/screenshots/consent-390.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("You can close this window.")).toBeVisible();
  expect(callback?.searchParams.get("code")).toBeTruthy();

  // The client finishes with the code and works with its token: remember, then recall.
  const connecting = new StreamableHTTPClientTransport(endpoint, { authProvider: state });
  await connecting.finishAuth(callback!.searchParams.get("code")!);
  expect(state.saved?.access_token).toBeTruthy();
  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: state }));
  const remembered = await client.callTool({ name: "remember", arguments: { content: "Mia flies to Lisbon in May" } });
  expect(remembered.isError).toBeFalsy();
  const recalled = await client.callTool({ name: "recall", arguments: { query: "Where is Mia flying?" } });
  expect(JSON.stringify(recalled.content)).toContain("Mia flies to Lisbon in May");
  await client.close();

  // The API keys page lists the connection; revoking it ends it at once.
  await page.goto("/");
  await openPage(page, "API keys");
  const row = page.getByTestId("mcp-client-row").filter({ hasText: namespaceName });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("E2E Desktop Agent");
  await expect(row).toContainText(namespaceName);
  await expect(row).toContainText("read and write");
  await page.screenshot({ path: "test-results/screenshots/keys-mcp-clients-1280.png", fullPage: true });
  await row.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke client" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText("E2E Desktop Agent is disconnected");
  const after = await request.post(namespace.mcp_endpoint_url, {
    headers: {
      authorization: `Bearer ${state.saved!.access_token}`,
      accept: "application/json, text/event-stream",
    },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(after.status()).toBe(401);
  expect(after.headers()["www-authenticate"]).toContain('error="invalid_token"');
});
