import { expect, test } from "@playwright/test";
import { alertOn, generateKey, openPage, signInWithPassword, signOut, signUp, unique } from "./console";
import { mailsTo, nextLinkTo } from "./mail";

test("sign-up, sign-out and password sign-in; a wrong password gets a generic error", async ({ page }) => {
  const email = `dana-${unique()}@example.com`;
  await signUp(page, email, `Dana Labs ${unique()}`);
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
  await signOut(page);
  await page.screenshot({ path: "test-results/screenshots/sign-in.png", fullPage: true });

  await signInWithPassword(page, email, "not the password");
  await expect(alertOn(page)).toHaveText("The email or password is not right.");
  await signInWithPassword(page, "nobody-here@example.com", "not the password");
  await expect(alertOn(page)).toHaveText("The email or password is not right.");

  await signInWithPassword(page, email);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/dana-labs-[a-z0-9]+$/);
});

test("five wrong passwords lock the address, and then even the right one is refused", async ({ page }) => {
  const email = `lee-${unique()}@example.com`;
  await signUp(page, email, `Lee Co ${unique()}`);
  await signOut(page);
  for (let attempt = 1; attempt <= 4; attempt++) {
    await signInWithPassword(page, email, `wrong ${attempt}`);
    await expect(alertOn(page)).toHaveText("The email or password is not right.");
  }
  await signInWithPassword(page, email, "wrong 5");
  await expect(alertOn(page)).toContainText("Too many failed sign-ins");
  await signInWithPassword(page, email);
  await expect(alertOn(page)).toContainText("Too many failed sign-ins");
});

test("a key generated in the browser works against the API until it is revoked in the browser", async ({
  page,
  request,
}) => {
  await signUp(page, `kim-${unique()}@example.com`, `Kim Corp ${unique()}`);
  await openPage(page, "API keys");
  await expect(page.getByText("No keys yet")).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/keys-empty.png", fullPage: true });

  await page.getByRole("button", { name: "Generate key" }).click();
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  await expect(page.getByText("give the key a name you will recognize")).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("support bot (production)");
  await page.getByLabel("Custom").check();
  await page.getByLabel("Manage namespaces").check();
  await page.getByRole("button", { name: "Generate", exact: true }).click();

  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("You will not see it again.");
  const secret = (await page.getByTestId("new-key-secret").innerText()).trim();
  expect(secret).toMatch(/^mgw_[1-9A-HJ-NP-Za-km-z]{40,}$/);
  await page.screenshot({ path: "test-results/screenshots/key-secret-dialog.png", fullPage: true });
  await dialog.getByRole("button", { name: "I have stored it" }).click();

  const row = page.getByTestId("key-row").filter({ hasText: "support bot (production)" });
  await expect(row).toContainText(`mgw_…${secret.slice(-4)}`);
  await expect(row).toContainText("read, write, manage");
  await expect(page.getByText(secret)).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/keys.png", fullPage: true });

  const headers = { authorization: `Bearer ${secret}` };
  expect((await request.get("/api/v1/namespaces", { headers })).status()).toBe(200);

  await row.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toContainText("Revoked");
  expect((await request.get("/api/v1/namespaces", { headers })).status()).toBe(401);
});

test("switching organizations shows each one's own keys, and the last used one opens after sign-in", async ({
  browser,
}) => {
  const email = `ana-${unique()}@example.com`;
  const ana = await browser.newPage();
  const alpha = `Alpha ${unique()}`;
  await signUp(ana, email, alpha);
  await generateKey(ana, "alpha key");

  // The owner of a second organization invites Ana; she is a member at once.
  const owner = await browser.newPage();
  const ownerEmail = `olga-${unique()}@example.com`;
  const beta = `Beta ${unique()}`;
  await signUp(owner, ownerEmail, beta);
  await generateKey(owner, "beta key");
  await owner.getByRole("link", { name: "Members" }).click();
  await owner.getByLabel("Email").fill(email);
  await owner.getByRole("button", { name: "Send invitation" }).click();
  await expect(owner.getByRole("status")).toHaveText(`Invitation sent to ${email}.`);
  await expect(owner.getByLabel(`Role of ${email}`)).toHaveValue("member");

  await ana.reload();
  await expect(ana.getByTestId("key-row")).toHaveText([/alpha key/]);
  await ana.getByLabel("Organization").selectOption({ label: beta });
  await expect(ana).toHaveURL(/\/beta-[a-z0-9]+$/);
  await openPage(ana, "API keys");
  await expect(ana.getByTestId("key-row")).toHaveText([/beta key/]);
  await expect(ana.getByText("alpha key")).toHaveCount(0);

  await signOut(ana);
  await signInWithPassword(ana, email);
  await expect(ana).toHaveURL(/\/beta-[a-z0-9]+$/);
  await expect(ana.getByLabel("Organization")).toHaveValue(/^beta-/);
});

test("a magic link arrives by mail, signs in once, and cannot be used again", async ({ page, browser }) => {
  const email = `mo-${unique()}@example.com`;
  await signUp(page, email, `Mo Studio ${unique()}`);
  await signOut(page);

  await page.getByRole("tab", { name: "Magic link" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(
    "If an account exists for that address, a sign-in link is on its way.",
  );
  // The first mail to the address was the sign-up's.
  const link = await nextLinkTo(email, 1);

  await page.goto(link);
  await expect(page).toHaveURL(/\/mo-studio-[a-z0-9]+$/);
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);

  const other = await browser.newPage();
  await other.goto(link);
  await expect(other.getByRole("main").getByRole("alert")).toHaveText(
    "This sign-in link has expired or was already used. Ask for a new one.",
  );
});

test("asking for a magic link gives the same reply for an unknown address, and too many requests get a 429", async ({
  page,
  request,
}) => {
  const stranger = `nobody-${unique()}@example.com`;
  await page.goto("/sign-in");
  await page.getByRole("tab", { name: "Magic link" }).click();
  await page.getByLabel("Email").fill(stranger);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(
    "If an account exists for that address, a sign-in link is on its way.",
  );
  expect(mailsTo(stranger)).toEqual([]);

  // Five requests per address in 15 minutes (the page's was the first); the sixth is refused.
  const { csrfToken } = await (await request.get("/api/auth/csrf")).json();
  const ask = () => request.post("/api/auth/signin/email", { form: { email: stranger, csrfToken, json: "true" } });
  for (let i = 0; i < 4; i++) expect((await ask()).status()).toBe(200);
  const refused = await ask();
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
  await page.getByLabel("Email").fill(stranger);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(alertOn(page)).toHaveText("Too many attempts. Wait a few minutes before trying again.");
});

test("an invited member signs in from the invitation; a role change and a removal apply on their next request", async ({
  page,
  browser,
}) => {
  await signUp(page, `omar-${unique()}@example.com`, `Omar Works ${unique()}`);
  const orgUrl = new URL(page.url()).pathname.split("/")[1];
  await page.getByRole("link", { name: "Members" }).click();
  const email = `max-${unique()}@example.com`;
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(`Invitation sent to ${email}.`);
  const maxRow = page.getByTestId("member-row").filter({ hasText: email });
  await expect(maxRow.getByTestId("member-status")).toContainText("Invited");

  const max = await browser.newPage();
  await max.goto(await nextLinkTo(email));
  await expect(max).toHaveURL(new RegExp(`/${orgUrl}$`));
  await max.getByRole("link", { name: "Members" }).click();
  await expect(max.getByRole("heading", { name: "Members" })).toBeVisible();
  await expect(max.getByRole("button", { name: "Send invitation" })).toHaveCount(0);

  await page.reload();
  await expect(maxRow.getByTestId("member-status")).not.toContainText("Invited");
  await page.getByLabel(`Role of ${email}`).selectOption("admin");
  await expect(page.getByRole("main").getByRole("status")).toHaveText(`${email} is now admin.`);
  await max.reload();
  await expect(max.getByRole("button", { name: "Send invitation" })).toBeVisible();

  await maxRow.getByRole("button", { name: "Remove" }).click();
  await page
    .getByRole("dialog", { name: `Remove ${email}?` })
    .getByRole("button", { name: "Remove" })
    .click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(`${email} was removed.`);
  await expect(maxRow).toHaveCount(0);
  const response = await max.reload();
  expect(response?.status()).toBe(404);
  await expect(max.getByRole("main")).toContainText("belongs to an organization you are not a member of");
  await expect(max.getByRole("button", { name: "Send invitation" })).toHaveCount(0);
});

test("the console's pages fit a phone screen; wide tables scroll inside their own box", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page, `pia-${unique()}@example.com`, `Pia Phone ${unique()}`);
  await generateKey(page, "phone key");
  const nav = page.getByRole("navigation", { name: "Console" });
  const links = [
    "Overview",
    "Namespaces",
    "Identities",
    "Scopes",
    "Integrations",
    "Webhooks",
    "API keys",
    "Members",
    "Audit log",
    "Settings",
  ];
  await expect(nav.getByRole("link")).toHaveText(links);
  for (const link of links) {
    await nav.getByRole("link", { name: link, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // The current page is marked, and only it.
    await expect(nav.locator('[aria-current="page"]')).toHaveText(link);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, link).toBeLessThanOrEqual(0);
  }
  await page.screenshot({ path: "test-results/screenshots/settings-phone.png", fullPage: true });
});
