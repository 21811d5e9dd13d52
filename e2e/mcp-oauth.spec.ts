// An MCP client connects with nothing but the namespace's endpoint URL: the official SDK client, with its
// OAuth client provider, discovers the gateway's authorization server from a 401, registers itself, sends the
// person to the console's consent page (this browser), gets its tokens and calls `recall`. Then the person
// revokes it on the API keys page and its next request is a 401.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test, type Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config";
import { CLIENT_REDIRECT_URI, MemoryOAuthClient } from "../tests/helpers/oauth-client";
import { expectNoSidewaysScroll, needlesslyBrokenWords, openPage, unique } from "./console";
import { expectAccessible } from "./axe";

/** At 1280 and 390 px when E2E_SHOTS_DIR asks for pictures; the page never scrolls sideways on a phone. */
async function photograph(page: Page, name: string) {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, name);
  if (dir) await page.screenshot({ path: `${dir}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("an MCP client connects with the endpoint URL alone: consent in the console, recall, then revoked", async ({
  page,
  request,
  baseURL,
}) => {
  // A namespace of the bootstrap organization (playwright.config.ts), made with its key.
  const namespaceName = `travel-notes-${unique()}`;
  const created = await request.post("/api/v1/namespaces", {
    headers: { authorization: `Bearer ${E2E_API_KEY}` },
    data: { name: namespaceName },
  });
  const namespace = (await created.json()).data as { id: string; mcp_endpoint_url: string };
  expect(namespace.mcp_endpoint_url).toBe(`${baseURL}/api/v1/mcp/${namespace.id}`);

  // The client knows the URL only: its first request is a 401 that leads it to the authorization server.
  const state = new MemoryOAuthClient("E2E Desktop Agent");
  const endpoint = new URL(namespace.mcp_endpoint_url);
  await expect(
    new Client({ name: "e2e-agent", version: "1.0.0" }).connect(
      new StreamableHTTPClientTransport(endpoint, { authProvider: state }),
    ),
  ).rejects.toBeInstanceOf(UnauthorizedError);
  expect(state.information?.client_id).toBeTruthy();

  // The browser: the consent page names the client and the namespace, and offers read or read and write.
  let callback: URL | undefined;
  await page.route(`${CLIENT_REDIRECT_URI}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ contentType: "text/html", body: "<p>You can close this window.</p>" });
  });
  // Signed out, the browser signs in first (the organization's sign-in policy applies) and comes back.
  await page.goto(state.authorizationUrl!.toString());
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fconsent%2F/);
  await page.getByLabel("Email").fill("e2e@example.com");
  await page.getByLabel("Password").fill("an e2e password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("consent-title")).toHaveText(`Connect E2E Desktop Agent to ${namespaceName}?`);
  await expect(page.getByText("localhost:8976")).toBeVisible();
  await expect(page.getByLabel(/^Read and write/)).toBeChecked();
  await expectAccessible(page, "consent");
  await page.screenshot({ path: "test-results/screenshots/consent-1280.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, "the consent page");
  // A name breaks only where it would not fit on a line of its own.
  expect(await needlesslyBrokenWords(page.getByTestId("consent-details"))).toEqual([]);
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
  const forgotten = await client.callTool({ name: "forget", arguments: { metadata: { never: "matches" } } });
  expect(forgotten.isError).toBeFalsy();
  await client.close();

  // People see it as the MCP connection it is, once: on the namespace's permissions panel and in the audit log.
  await page.goto("/");
  const slug = new URL(page.url()).pathname.split("/")[1];
  await page.goto(`/${slug}/namespaces/${namespace.id}`);
  const grant = page.getByTestId("grant-row").filter({ hasText: "E2E Desktop Agent" });
  await expect(grant).toHaveCount(1);
  await expect(grant.getByTestId("grant-kind")).toContainText("MCP connection · by e2e@example.com");
  await expect(grant).not.toContainText("API key");
  await photograph(page, "namespace-permissions-mcp-connection");
  await page.goto(`/${slug}/audit`);
  await expect(page.getByText("MCP connection · E2E Desktop Agent (by e2e@example.com)").first()).toBeVisible();
  await photograph(page, "audit-mcp-connection");

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
