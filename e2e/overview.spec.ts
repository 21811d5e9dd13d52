// The organization's overview (/{org}) and audit log (/{org}/audit), as a new user meets them: the
// getting-started checklist ticks itself from what they do (a key, a namespace, a first memory, an MCP
// client), the figures appear, the audit log lists the changes, and a member cannot open it.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectNoSidewaysScroll, openPage, signUp, unique } from "./console";
import { nextLinkTo } from "./mail";

const orgSlugOf = (page: Page) => new URL(page.url()).pathname.split("/")[1];

async function screenshots(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // The chart redraws at the new width (its bars grow in).
    await page.waitForTimeout(800);
    // The page itself never scrolls sideways (wide tables scroll inside their own box).
    await expectNoSidewaysScroll(page, `${name} at ${width} px`);
    await page.screenshot({ path: `test-results/screenshots/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The checklist's step `title`: its "Done" mark, or the link to where it is done. */
function step(page: Page, title: string) {
  return page.getByRole("region", { name: "Getting started" }).getByRole("listitem").filter({ hasText: title });
}

async function post(request: APIRequestContext, path: string, secret: string, data: unknown) {
  return request.post(`/api/v1${path}`, { headers: { authorization: `Bearer ${secret}` }, data });
}

test("the overview's checklist ticks itself as a new user goes; the figures and the audit log follow", async ({
  page,
  browser,
  request,
}) => {
  const ownerEmail = `nora-${unique()}@example.com`;
  await signUp(page, ownerEmail, `Nora Labs ${unique()}`);
  const slug = orgSlugOf(page);
  expect(new URL(page.url()).pathname).toBe(`/${slug}`);
  const checklist = page.getByRole("region", { name: "Getting started" });
  await expect(checklist).toContainText("0 of 4 steps done.");
  await expect(step(page, "Create an API key").getByRole("link", { name: "Create a key" })).toHaveAttribute(
    "href",
    `/${slug}/keys?generate=1`,
  );
  // The later steps say "Create a namespace first": the step's own link is the one named exactly so.
  await expect(
    step(page, "Create a namespace").getByRole("link", { name: "Create a namespace", exact: true }),
  ).toHaveAttribute("href", `/${slug}/namespaces?create=1`);
  await expect(page.getByRole("heading", { name: "No operations in the last 30 days" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Console" }).locator('[aria-current="page"]')).toHaveText(
    "Overview",
  );
  await screenshots(page, "overview-new");

  // 1. A key, from the checklist's link: the keys page opens with its dialog.
  await step(page, "Create an API key").getByRole("link", { name: "Create a key" }).click();
  await expect(page).toHaveURL(new RegExp(`/${slug}/keys\\?generate=1$`));
  const dialog = page.getByRole("dialog", { name: "Generate a key" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Name", { exact: true }).fill("onboarding bot");
  await dialog.getByLabel("Full access").check();
  await dialog.getByRole("button", { name: "Generate", exact: true }).click();
  const secret = (await page.getByTestId("new-key-secret").innerText()).trim();
  await page.getByRole("dialog").getByRole("button", { name: "I have stored it" }).click();
  await openPage(page, "Overview");
  await expect(checklist).toContainText("1 of 4 steps done.");
  await expect(step(page, "Create an API key")).toContainText("Done");

  // 2. A namespace, through the API with that key.
  const created = await post(request, "/namespaces", secret, { name: "support-bot" });
  expect(created.status()).toBe(201);
  const namespaceId = (await created.json()).data.id as string;
  await page.reload();
  await expect(checklist).toContainText("2 of 4 steps done.");
  await expect(step(page, "Remember a first memory").getByRole("link")).toHaveAttribute(
    "href",
    `/${slug}/namespaces/${namespaceId}#try-it`,
  );

  // 3. A first memory, through the API.
  const remembered = await post(request, "/remember", secret, {
    namespace_id: namespaceId,
    content: "Dana prefers morning meetings.",
    identity_id: "dana",
  });
  expect(remembered.status()).toBe(201);
  await page.reload();
  await expect(checklist).toContainText("3 of 4 steps done.");
  await expect(step(page, "Connect an MCP client")).toContainText("Get the MCP endpoint");

  // 4. An MCP client calls a tool on the namespace's endpoint (one JSON-RPC message per POST).
  const mcp = await request.post(`/api/v1/mcp/${namespaceId}`, {
    headers: {
      authorization: `Bearer ${secret}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "x-identity-id": "dana",
    },
    data: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "recall", arguments: { query: "When does Dana like to meet?" } },
    }),
  });
  expect(mcp.status()).toBe(200);
  expect((await mcp.json()).result.isError).toBeFalsy();
  await page.reload();
  await expect(checklist).toContainText("All set: every step is done.");
  for (const title of ["Create an API key", "Create a namespace", "Remember a first memory", "Connect an MCP client"]) {
    await expect(step(page, title)).toContainText("Done");
  }

  // The figures: the chart (with its numbers), latency and errors per operation, the busiest lists.
  await expect(page.getByText("Operations per day, last 30 days (UTC): 2 operations")).toBeVisible();
  const latency = page.getByRole("table").filter({ hasText: "p95" });
  await expect(latency.getByRole("row").filter({ hasText: "remember" })).toContainText("0%");
  await expect(latency.getByRole("row").filter({ hasText: /^All/ })).toContainText("2");
  await expect(page.getByRole("link", { name: "support-bot" })).toHaveAttribute(
    "href",
    `/${slug}/namespaces/${namespaceId}`,
  );
  await expect(page.getByRole("link", { name: "dana", exact: true })).toHaveAttribute(
    "href",
    `/${slug}/identities/dana`,
  );
  await screenshots(page, "overview");

  // A deletion request through the API: the audit log shows it with its erasure receipt.
  const forgotten = await post(request, "/forget", secret, { namespace_id: namespaceId, identity_id: "left-us" });
  expect(forgotten.status()).toBe(200);
  const erasureId = (await forgotten.json()).data.erasure_id as string;

  // The audit log lists the key's creation, by the owner; filters by action; a bad date is a message.
  await openPage(page, "Audit log");
  const erasure = page.getByRole("row").filter({ hasText: "memory.forget" });
  await expect(erasure).toContainText("API key onboarding bot");
  await expect(erasure).toContainText(erasureId);
  await screenshots(page, "audit-erasure");
  const created_ = page.getByRole("row").filter({ hasText: "api_key.create" });
  await expect(created_).toContainText(ownerEmail);
  await expect(created_).toContainText("onboarding bot");
  await expect(page.getByRole("row").filter({ hasText: "namespace.create" })).toContainText("API key onboarding bot");
  await page.getByLabel("Action").selectOption("api_key.create");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=api_key.create/);
  await expect(page.getByRole("row")).toHaveCount(2);
  await screenshots(page, "audit");
  const bad = await page.goto(`/${slug}/audit?from=2026-02-30`);
  expect(bad?.status()).toBe(200);
  await expect(page.getByRole("main")).toContainText("This date does not exist.");
  await expect(page.getByRole("main")).toContainText("Correct the filters above to see the log.");

  // A member: no "Audit log" in the sidebar, and the address is a 404 page.
  await openPage(page, "Members");
  const memberEmail = `milo-${unique()}@example.com`;
  await page.getByLabel("Email").fill(memberEmail);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(memberEmail);
  const member = await (await browser.newContext()).newPage();
  await member.goto(await nextLinkTo(memberEmail));
  await expect(member.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(member.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  expect((await member.goto(`/${slug}/audit`))!.status()).toBe(404);
  await expect(member.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(member.getByText("api_key.create")).toHaveCount(0);
  await expect(member.getByLabel("Action")).toHaveCount(0);
});
