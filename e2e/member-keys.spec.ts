// Removing a member decides what happens to the API keys they created: revoked, or taken over.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { generateKey, openPage, signUp, unique } from "./console";
import { nextLinkTo } from "./mail";

async function inviteAndSignIn(page: Page, browser: Browser, email: string, role: "admin" | "member") {
  await page.getByRole("link", { name: "Members" }).click();
  await page.getByLabel("Email").fill(email);
  await page.locator("select[name=role]").selectOption(role);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(`Invitation sent to ${email}.`);
  const them = await browser.newPage();
  await them.goto(await nextLinkTo(email));
  // An invitation's link lands on the organization's overview.
  await expect(them.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await openPage(them, "API keys");
  return them;
}

test("removing a member asks about their keys: take them over (they keep working) or revoke them (401)", async ({
  page,
  browser,
  request,
}) => {
  const ownerEmail = `olga-${unique()}@example.com`;
  await signUp(page, ownerEmail, `Olga Systems ${unique()}`);
  const namespacesWith = (secret: string) =>
    request.get("/api/v1/namespaces", { headers: { authorization: `Bearer ${secret}` } });
  const status = page.getByRole("main").getByRole("status");

  // An admin with two keys: the owner takes them over.
  const anaEmail = `ana-${unique()}@example.com`;
  const ana = await inviteAndSignIn(page, browser, anaEmail, "admin");
  const anaSecret = await generateKey(ana, "ana's sync job");
  await generateKey(ana, "ana's nightly export");
  expect((await namespacesWith(anaSecret)).status()).toBe(200);

  await page.reload();
  await page.getByTestId("member-row").filter({ hasText: anaEmail }).getByRole("button", { name: "Remove" }).click();
  const dialog = page.getByRole("dialog", { name: `Remove ${anaEmail}?` });
  await expect(dialog).toContainText("They created 2 active API keys.");
  const keyList = dialog.getByRole("list", { name: `API keys of ${anaEmail}` });
  const listed = [/ana's sync job\s*mgw_…/, /ana's nightly export\s*mgw_…/];
  await expect(keyList.getByRole("listitem")).toHaveText(listed);
  await expect(dialog.getByRole("button", { name: "Revoke their 2 keys" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/members-remove-dialog-1280.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(dialog.getByRole("button", { name: "Take them over" })).toBeInViewport();
  await page.screenshot({ path: "test-results/screenshots/members-remove-dialog-390.png" });
  await page.setViewportSize({ width: 1280, height: 720 });

  await dialog.getByRole("button", { name: "Take them over" }).click();
  await expect(status).toHaveText(`${anaEmail} was removed; you now own their 2 keys.`);
  expect((await namespacesWith(anaSecret)).status()).toBe(200);
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("row").filter({ hasText: "ana's sync job" })).toContainText(ownerEmail);

  // A member with one key: the owner revokes it with the removal.
  const benEmail = `ben-${unique()}@example.com`;
  const ben = await inviteAndSignIn(page, browser, benEmail, "member");
  const benSecret = await generateKey(ben, "ben's notebook");
  expect((await namespacesWith(benSecret)).status()).toBe(200);
  await page.reload();
  await page.getByTestId("member-row").filter({ hasText: benEmail }).getByRole("button", { name: "Remove" }).click();
  const benDialog = page.getByRole("dialog", { name: `Remove ${benEmail}?` });
  await expect(benDialog).toContainText("They created 1 active API key.");
  await benDialog.getByRole("button", { name: "Revoke their 1 key" }).click();
  await expect(status).toHaveText(`${benEmail} was removed and their 1 key revoked.`);
  expect((await namespacesWith(benSecret)).status()).toBe(401);
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("row").filter({ hasText: "ben's notebook" })).toContainText("Revoked");
});
