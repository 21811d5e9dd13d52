// The console's forms after a refusal (issue 32): sign-up keeps what was typed; the key dialog refuses scopes
// with Full access before sending, and after a server refusal shows one error and changes nothing; an
// invitation's link is copied from the Members page and signs the invitee in, once. With E2E_SHOTS_DIR set,
// each state is photographed at 1280 and 390 px.
import { expect, test, type Page, type Request } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config";
import { expectAccessible } from "./axe";
import { PASSWORD, signInOnce, signUp, unique } from "./console";
import { nextLinkTo } from "./mail";

const SHOTS = process.env.E2E_SHOTS_DIR;
const headers = { authorization: `Bearer ${E2E_API_KEY}` };

async function photograph(page: Page, name: string) {
  if (!SHOTS) return;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SHOTS}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The server actions the page calls (a POST carrying Next's action header), counted from now on. */
function countActions(page: Page) {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.headers()["next-action"]) seen.push(request);
  });
  return seen;
}

test("sign-up keeps the email and organization name after a refused password", async ({ page }) => {
  const email = `keeps-${unique()}@example.com`;
  const organization = `Keeps Fields ${unique()}`;
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("short");
  await page.getByLabel("Organization name").fill(organization);
  await page.getByRole("button", { name: "Create account" }).click();

  const password = page.getByLabel("Password");
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("main").getByRole("alert")).toHaveCount(1);
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Organization name")).toHaveValue(organization);
  await expect(password).toHaveValue("");
  await photograph(page, "sign-up-refused");

  // Only the password needs typing again; the kept fields are what is sent.
  await password.fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(
    `Check your inbox: we sent a message to ${email}.`,
  );
});

test("the key dialog refuses scopes with Full access before sending, and a server refusal changes nothing", async ({
  page,
  request,
}) => {
  const created = await request.post("/api/v1/namespaces", { headers, data: { name: `forms-${unique()}` } });
  expect(created.status()).toBe(201);
  const namespace = (await created.json()).data as { id: string; name: string };
  const slug = await signInOnce(page, "e2e@example.com", "an e2e password");
  await page.goto(`/${slug}/keys`);
  await page.getByRole("button", { name: "Generate key" }).click();
  const dialog = page.getByRole("dialog", { name: "Generate a key" });
  const name = `full key ${unique()}`;
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByLabel("Full access").check();
  await dialog.getByRole("checkbox", { name: namespace.name }).check();

  // Refused as it is typed: the reason beside the scopes, Generate disabled, nothing sent.
  const actions = countActions(page);
  await dialog.getByLabel("Scopes (optional)").fill("team=sales");
  const generate = dialog.getByRole("button", { name: "Generate", exact: true });
  await expect(dialog.getByRole("alert")).toHaveText(/A key with scopes cannot manage namespaces/);
  await expect(dialog.getByRole("alert")).toHaveCount(1);
  await expect(generate).toBeDisabled();
  await dialog.getByLabel("Scopes (optional)").press("Enter");
  await page.waitForTimeout(500);
  expect(actions).toHaveLength(0);
  await expectAccessible(page, "keys: refused before sending");
  await photograph(page, "key-dialog-refused-before-sending");

  // A refusal only the server can make: the chosen namespace is deleted meanwhile.
  await dialog.getByLabel("Scopes (optional)").fill("");
  await expect(generate).toBeEnabled();
  const deleted = await request.delete(`/api/v1/namespaces/${namespace.id}`, { headers });
  expect(deleted.status()).toBe(200);
  await generate.click();
  await expect(dialog.getByRole("alert")).toHaveText(/not found/);
  await expect(dialog.getByRole("alert")).toHaveCount(1);
  expect(actions).toHaveLength(1);
  // Everything as the user left it: the preset (its radio and its card), the namespace, the name.
  await expect(dialog.getByLabel("Full access")).toBeChecked();
  await expect(dialog.getByLabel("Read and write")).not.toBeChecked();
  await expect(dialog.locator("label.border-indigo-500")).toContainText("Full access");
  await expect(dialog.getByRole("checkbox", { name: namespace.name })).toBeChecked();
  await expect(dialog.getByLabel("Name", { exact: true })).toHaveValue(name);
  await photograph(page, "key-dialog-server-refusal");

  // Without the deleted namespace, the key made is the one the dialog shows.
  await dialog.getByRole("checkbox", { name: namespace.name }).uncheck();
  await generate.click();
  await expect(page.getByTestId("new-key-secret")).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "I have stored it" }).click();
  const row = page.getByTestId("key-row").filter({ hasText: name });
  await expect(row).toContainText("read, write, manage");
});

test("an invitation's link is copied from the Members page and signs the invitee in, once", async ({
  page,
  browser,
}) => {
  await signUp(page, `inviter-${unique()}@example.com`, `Inviting ${unique()}`);
  const slug = new URL(page.url()).pathname.split("/")[1];
  await page.getByRole("link", { name: "Members" }).click();
  const email = `guest-${unique()}@example.com`;
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(`Invitation sent to ${email}.`);
  const row = page.getByTestId("member-row").filter({ hasText: email });
  await expect(row.getByTestId("member-status")).toContainText("Invited");
  await expect(row.getByRole("button", { name: "Resend" })).toBeVisible();
  await photograph(page, "members-invited");
  const mailed = await nextLinkTo(email);

  await row.getByRole("button", { name: "Copy link" }).click();
  const dialog = page.getByRole("dialog", { name: `Invitation link for ${email}` });
  await expect(dialog).toContainText("It is shown only now");
  const link = (await dialog.getByTestId("invitation-link").textContent())!;
  expect(link).toContain("/api/auth/callback/email?");
  await expectAccessible(page, "members: invitation link dialog");
  await photograph(page, "members-invitation-link");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toHaveCount(0);

  // The copied link replaced the mailed one.
  const stale = await browser.newContext();
  const stalePage = await stale.newPage();
  await stalePage.goto(mailed);
  await expect(stalePage).toHaveURL(/\/sign-in\?error=Verification/);
  await stale.close();

  const guest = await browser.newContext();
  const guestPage = await guest.newPage();
  await guestPage.goto(link);
  await expect(guestPage).toHaveURL(new RegExp(`/${slug}$`));
  await expect(guestPage.getByTestId("signed-in-as")).toHaveText(email);
  await expect(async () => {
    await page.reload();
    await expect(row.getByTestId("member-status")).not.toContainText("Invited", { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(row.getByRole("button", { name: "Copy link" })).toHaveCount(0);

  // Whoever opened the copied link may be its copier: that session cannot give the account a password.
  await guestPage.goto("/account");
  await guestPage.getByLabel("New password").fill("a password the copier would keep");
  await guestPage.getByRole("button", { name: "Set password" }).click();
  await expect(guestPage.getByRole("main").getByRole("alert")).toContainText(
    "copied invitation link cannot set a password",
  );

  // Once only.
  const again = await browser.newContext();
  const againPage = await again.newPage();
  await againPage.goto(link);
  await expect(againPage).toHaveURL(/\/sign-in\?error=Verification/);
  await again.close();
  await guest.close();
});
