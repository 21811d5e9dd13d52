// Every console page passes axe with no serious or critical violation, signed out (sign-in, sign-up) and
// signed in as the bootstrap owner; with E2E_SHOTS_DIR set, each is also photographed at desktop and phone width.
import { expect, test, type Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config";
import { expectAccessible } from "./axe";
import { PASSWORD, signInOnce, unique } from "./console";
import { nextFinishLinkTo } from "./mail";

const headers = { authorization: `Bearer ${E2E_API_KEY}` };
/** Where to photograph each page at desktop and phone width, for a person to look at; unset (CI), no photographs. */
const SHOTS = process.env.E2E_SHOTS_DIR;

async function check(page: Page, name: string) {
  await expectAccessible(page, name);
  if (!SHOTS) return;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SHOTS}/a11y-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/a11y-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("signed out: the home page, sign-in (each method), sign-up and finishing it", async ({ page }) => {
  await page.goto("/");
  await check(page, "home");
  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
  await check(page, "sign-in");
  await page.getByRole("tab", { name: "Magic link" }).click();
  await expectAccessible(page, "sign-in magic link");
  await page.getByRole("tab", { name: "SSO" }).click();
  await expectAccessible(page, "sign-in sso");
  // A failed sign-in: the error is announced and the form stays usable.
  await page.getByRole("tab", { name: "Password" }).click();
  await page.getByLabel("Email").fill("nobody@example.com");
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toBeVisible();
  await expectAccessible(page, "sign-in failed");
  await page.goto("/sign-up");
  await check(page, "sign-up");
  // Field errors: each names its input with aria-invalid and aria-describedby.
  await page.getByRole("button", { name: "Create account" }).click();
  const email = page.getByLabel("Email");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  const described = await email.getAttribute("aria-describedby");
  await expect(page.locator(`[id="${described}"]`)).toHaveAttribute("role", "alert");
  await expectAccessible(page, "sign-up with errors");
  // The page the mailed link opens.
  const address = `a11y-${unique()}@example.com`;
  await email.fill(address);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Organization name").fill(`A11y ${unique()}`);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText("Check your inbox");
  await page.goto(await nextFinishLinkTo(address));
  await expect(page.getByRole("heading", { name: "Finish signing up" })).toBeVisible();
  await check(page, "finish-sign-up");
});

test("signed in: every page of the console", async ({ page, request }) => {
  // Two dozen pages and dialogs, each analysed and photographed twice: longer than one page's default minute.
  test.setTimeout(240_000);
  const namespace = await request.post("/api/v1/namespaces", { headers, data: { name: `a11y-${unique()}` } });
  expect(namespace.status()).toBe(201);
  const namespaceId = (await namespace.json()).data.id as string;
  const identity = `a11y-person-${unique()}`;
  const remembered = await request.post("/api/v1/remember", {
    headers,
    data: {
      namespace_id: namespaceId,
      content: "Prefers replies in the morning.",
      identity_id: identity,
      scopes: { team: "support" },
    },
  });
  expect(remembered.status()).toBe(201);
  const memoryId = (await remembered.json()).data.id as string;
  const conversation = await request.post("/api/v1/remember", {
    headers,
    data: { namespace_id: namespaceId, session_id: "a11y-chat", messages: [{ role: "user", content: "Hello." }] },
  });
  expect(conversation.status()).toBe(201);
  const named = await request.post("/api/v1/remember", {
    headers,
    data: { namespace_id: namespaceId, identity_id: identity, content: "Caroline met Melanie in Paris." },
  });
  expect(named.status()).toBe(201);
  const entities = await request.get(`/api/v1/entities?namespace_id=${namespaceId}&q=Caroline`, { headers });
  const entityId = (await entities.json()).data[0].id as string;

  // A webhook endpoint, created disabled (nothing is sent): its card, its reason and its page.
  const webhook = await request.post("/api/v1/webhooks", {
    headers,
    data: { url: "http://127.0.0.1:9/a11y-hooks", namespace_ids: [namespaceId], enabled: false },
  });
  expect(webhook.status()).toBe(201);
  const webhookId = (await webhook.json()).data.endpoint.id as string;

  const slug = await signInOnce(page, "e2e@example.com", "an e2e password");
  const pages: [string, string][] = [
    ["overview", `/${slug}`],
    ["namespaces", `/${slug}/namespaces`],
    ["namespace", `/${slug}/namespaces/${namespaceId}`],
    ["memories", `/${slug}/namespaces/${namespaceId}/memories`],
    ["memories-search", `/${slug}/namespaces/${namespaceId}/memories?q=morning`],
    ["memory", `/${slug}/namespaces/${namespaceId}/memories/${memoryId}`],
    ["conversation", `/${slug}/namespaces/${namespaceId}/memories?session=a11y-chat`],
    ["entities", `/${slug}/namespaces/${namespaceId}/entities`],
    ["entity", `/${slug}/namespaces/${namespaceId}/entities/${entityId}`],
    ["namespace-events", `/${slug}/namespaces/${namespaceId}/events`],
    ["identities", `/${slug}/identities`],
    ["identity", `/${slug}/identities/${encodeURIComponent(identity)}`],
    ["scopes", `/${slug}/scopes`],
    ["keys", `/${slug}/keys`],
    ["members", `/${slug}/members`],
    ["integrations", `/${slug}/integrations`],
    ["webhooks", `/${slug}/webhooks`],
    ["webhook", `/${slug}/webhooks/${webhookId}`],
    ["audit", `/${slug}/audit`],
    ["settings", `/${slug}/settings`],
    ["account", "/account"],
  ];
  for (const [name, path] of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    // A page's layout (its heading) shows before its content has replaced the loading placeholder: check that.
    await expect(page.getByRole("status", { name: "Loading" })).toHaveCount(0);
    await page.waitForLoadState("networkidle");
    await check(page, name);
    // The endpoint made with the bootstrap key names the key, not its id.
    if (name === "webhook") await expect(page.getByTestId("webhook-made-with")).toContainText("Bootstrap key");
  }

  // The dialogs: generating a key (with its permission checkboxes) and creating a namespace.
  await page.goto(`/${slug}/keys`);
  await page.getByRole("button", { name: "Generate key" }).click();
  await page.getByRole("dialog").getByLabel("Custom").check();
  await expectAccessible(page, "keys: generate dialog");
  await page.goto(`/${slug}/namespaces`);
  await page.getByRole("button", { name: "New namespace" }).click();
  await expectAccessible(page, "namespaces: new namespace dialog");
  await page.goto(`/${slug}/webhooks`);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByRole("dialog").getByRole("group", { name: "Event types" }).getByLabel("Only these:").check();
  await expectAccessible(page, "webhooks: add endpoint dialog");
});
