// The keys page's dialog (presets, a namespace created from it, editing a key) and the scopes page (pairs in
// use, editing a key's scopes): each change is checked through the API with the key itself, at once.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { alertOn, signUp, unique } from "./console";

const SALES = "Sales closes the quarter on Friday.";
const SUPPORT = "Support answers every ticket within a day.";

/** The organization's slug from the page's URL (`/{org}/...`). */
const orgSlugOf = (page: Page) => new URL(page.url()).pathname.split("/")[1];

async function screenshots(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screenshots/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The page never scrolls sideways (wide tables scroll inside their own box). */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    await page.evaluate(() => window.innerWidth),
  );
}

async function recall(request: APIRequestContext, secret: string, namespaceId: string) {
  const response = await request.post("/api/v1/recall", {
    headers: { authorization: `Bearer ${secret}` },
    data: { namespace_id: namespaceId, query: "sales support quarter ticket" },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()).data as { content: string }[]).map((memory) => memory.content).sort();
}

test("default preset key remembers; scopes edited on the scopes page apply to its next recall", async ({
  page,
  request,
}) => {
  await signUp(page, `sara-${unique()}@example.com`, `Scopes Co ${unique()}`);
  const slug = orgSlugOf(page);
  await page.goto(`/${slug}/keys`);

  // Generate a key with the defaults, in a namespace created from the dialog.
  await page.getByRole("button", { name: "Generate key" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Read and write")).toBeChecked();
  await expect(dialog.getByRole("status")).toContainText("This key will reach no namespace");
  await dialog.getByLabel("Name", { exact: true }).fill("support bot");
  await dialog.getByLabel("New namespace").fill("tickets");
  await dialog.getByRole("button", { name: "Create namespace" }).click();
  await expect(dialog.getByRole("checkbox", { name: "tickets" })).toBeChecked();
  await expect(dialog.getByText("This key will reach no namespace")).toHaveCount(0);
  await screenshots(page, "keys-dialog-presets");
  await dialog.getByRole("button", { name: "Generate", exact: true }).click();
  const secret = (await page.getByTestId("new-key-secret").innerText()).trim();
  await page.getByRole("dialog").getByRole("button", { name: "I have stored it" }).click();
  const row = page.getByTestId("key-row").filter({ hasText: "support bot" });
  await expect(row).toContainText("read, write");
  await expect(row).toContainText("tickets");

  // The default preset can remember into the chosen namespace: with two scopes, through the API.
  const namespaces = await request.get("/api/v1/namespaces", { headers: { authorization: `Bearer ${secret}` } });
  const namespaceId = ((await namespaces.json()).data as { id: string; name: string }[]).find(
    (ns) => ns.name === "tickets",
  )!.id;
  const remembered = await request.post("/api/v1/remember", {
    headers: { authorization: `Bearer ${secret}` },
    data: {
      namespace_id: namespaceId,
      memories: [
        { content: SALES, scopes: { team: "sales" } },
        { content: SUPPORT, scopes: { team: "support" } },
      ],
    },
  });
  expect(remembered.status()).toBe(201);
  expect(await recall(request, secret, namespaceId)).toEqual([SALES, SUPPORT].sort());

  // The scopes page: each pair, its memories per namespace, and no key bound to it yet.
  await page.goto(`/${slug}/scopes`);
  await expect(page.getByRole("heading", { name: "Scopes", exact: true })).toBeVisible();
  const salesRow = page.getByTestId("scope-row").filter({ hasText: "team=sales" });
  await expect(salesRow).toContainText("tickets: 1");
  await expect(page.getByTestId("scope-row")).toHaveCount(2);

  // Bind the key to team=support: its very next recall sees only the support memory.
  const keyRow = page.getByTestId("scoped-key-row").filter({ hasText: "support bot" });
  await expect(keyRow).toContainText("none: sees every memory");
  await keyRow.getByRole("button", { name: "Edit scopes" }).click();
  const scopesDialog = page.getByRole("dialog");
  await scopesDialog.getByLabel("Add a scope").fill("team=sales");
  await scopesDialog.getByRole("button", { name: "Add", exact: true }).click();
  await scopesDialog.getByLabel("Add a scope").fill("team=support");
  await scopesDialog.getByRole("button", { name: "Add", exact: true }).click();
  await expect(scopesDialog.getByRole("listitem")).toHaveCount(1);
  await expect(scopesDialog.getByRole("listitem")).toContainText("team=support");
  await screenshots(page, "scopes-edit-dialog");
  await scopesDialog.getByRole("button", { name: "Save scopes" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText("Scopes of “support bot” saved");
  await expect(keyRow).toContainText("team=support");
  await expect(page.getByTestId("scope-row").filter({ hasText: "team=support" })).toContainText("support bot");
  expect(await recall(request, secret, namespaceId)).toEqual([SUPPORT]);
  await expectNoSidewaysScroll(page);
  await screenshots(page, "scopes");

  // Remove it again: the key sees both.
  await keyRow.getByRole("button", { name: "Edit scopes" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove team=support" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Save scopes" }).click();
  await expect(keyRow).toContainText("none: sees every memory");
  expect(await recall(request, secret, namespaceId)).toEqual([SALES, SUPPORT].sort());

  // "New key with this scope" opens the keys page's dialog with the scope filled in.
  await salesRow.getByRole("link", { name: "New key with this scope" }).click();
  const prefilled = page.getByRole("dialog");
  await expect(prefilled.getByLabel("Scopes (optional)")).toHaveValue("team=sales");
  await prefilled.getByLabel("Name", { exact: true }).fill("sales bot");
  await prefilled.getByRole("checkbox", { name: "tickets" }).check();
  await prefilled.getByRole("button", { name: "Generate", exact: true }).click();
  const salesSecret = (await page.getByTestId("new-key-secret").innerText()).trim();
  await page.getByRole("dialog").getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("key-row").filter({ hasText: "sales bot" })).toContainText("team=sales");
  expect(await recall(request, salesSecret, namespaceId)).toEqual([SALES]);
});

test("the keys table shows permissions as words, keeps Edit and Revoke in view, and edits a key", async ({
  page,
  request,
}) => {
  await signUp(page, `kai-${unique()}@example.com`, `Keys Table ${unique()}`);
  const slug = orgSlugOf(page);
  await page.goto(`/${slug}/keys`);
  const generate = async (name: string, preset: string, scopes = "") => {
    await page.getByRole("button", { name: "Generate key" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name", { exact: true }).fill(name);
    await dialog.getByLabel(preset).check();
    if (scopes) await dialog.getByLabel("Scopes (optional)").fill(scopes);
    await dialog.getByRole("button", { name: "Generate", exact: true }).click();
    const secret = (await page.getByTestId("new-key-secret").innerText()).trim();
    await page.getByRole("dialog").getByRole("button", { name: "I have stored it" }).click();
    return secret;
  };
  const full = await generate("deployment pipeline (production, eu-west-1)", "Full access");
  await generate("analytics reader with a rather long name", "Read only", "team=analytics, region=eu");
  const fullRow = page.getByTestId("key-row").filter({ hasText: "deployment pipeline" });
  await expect(fullRow).toContainText("read, write, manage, integrations");
  await expect(page.getByText("NAMESPACE_")).toHaveCount(0);

  // Full access and scopes do not go together: the dialog says why before anything is sent; nothing is created.
  await page.getByRole("button", { name: "Generate key" }).click();
  await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("refused");
  await page.getByRole("dialog").getByLabel("Full access").check();
  await page.getByRole("dialog").getByLabel("Scopes (optional)").fill("team=x");
  await expect(page.getByRole("dialog").getByRole("button", { name: "Generate", exact: true })).toBeDisabled();
  await expect(page.getByRole("dialog").getByRole("alert").first()).toContainText(
    "A key with scopes cannot manage namespaces",
  );
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("key-row")).toHaveCount(2);

  // At 1280 px the buttons are inside the table's box, not cut off.
  await screenshots(page, "keys-table");
  const box = await page.getByTestId("key-row").first().locator("..").locator("..").locator("..").boundingBox();
  for (const name of ["Edit", "Revoke"]) {
    const button = await fullRow.getByRole("button", { name, exact: true }).boundingBox();
    expect(button!.x + button!.width).toBeLessThanOrEqual(box!.x + box!.width);
  }
  await page.setViewportSize({ width: 390, height: 900 });
  await expectNoSidewaysScroll(page);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Edit: full access → read only; the key's next request can no longer create a namespace.
  const headers = { authorization: `Bearer ${full}` };
  expect((await request.post("/api/v1/namespaces", { headers, data: { name: "before-edit" } })).status()).toBe(201);
  await fullRow.getByRole("button", { name: "Edit", exact: true }).click();
  const edit = page.getByRole("dialog");
  await expect(edit.getByLabel("Full access")).toBeChecked();
  await edit.getByLabel("Read only").check();
  await screenshots(page, "keys-edit-dialog");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText("updated");
  await expect(fullRow).toContainText("read");
  await expect(fullRow).not.toContainText("manage");
  expect((await request.post("/api/v1/namespaces", { headers, data: { name: "after-edit" } })).status()).toBe(403);
});

test("a wrong password keeps the email in the sign-in form", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill("someone@example.com");
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(alertOn(page)).toHaveText("The email or password is not right.");
  await expect(page.getByLabel("Email")).toHaveValue("someone@example.com");
  // The refused password is typed again: it is not kept on screen.
  await expect(page.getByLabel("Password")).toHaveValue("");
});
