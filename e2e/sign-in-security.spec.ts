// The console's sign-in against an attacker (issue 12): open redirects, session cookies that outlive
// sign-out, the account page's session controls, and a sign-up that does not reveal who has an account.
import { expect, test, type Page } from "@playwright/test";
import { alertOn, PASSWORD, signInWithPassword, signOut, signUp, unique } from "./console";
import { mailsTo, nextFinishLinkTo, nextLinkTo } from "./mail";

const status = (page: Page) => page.getByRole("main").getByRole("status");

test("a callbackUrl leading to another site ends on this one after a password sign-in", async ({ page, baseURL }) => {
  const email = `rhea-${unique()}@example.com`;
  await signUp(page, email, `Rhea Labs ${unique()}`);
  await signOut(page);
  for (const callbackUrl of ["//evil.example/steal", "/\\evil.example/steal", "https://evil.example/"]) {
    await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
    expect(new URL(page.url()).origin, callbackUrl).toBe(baseURL);
    await signOut(page);
  }
});

test("after sign-out the old session cookie no longer opens the console", async ({ page, browser }) => {
  await signUp(page, `sol-${unique()}@example.com`, `Sol Inc ${unique()}`);
  const keysUrl = page.url();
  const cookies = await page.context().cookies();
  await signOut(page);

  // Someone who copied the cookie before the sign-out replays it.
  const replay = await browser.newContext();
  await replay.addCookies(cookies);
  const thief = await replay.newPage();
  await thief.goto(keysUrl);
  await expect(thief.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
  expect(await (await thief.request.get("/api/auth/session")).json()).toEqual({});
});

test("the account page lists sessions, signs out another one, changes the password and signs out everywhere", async ({
  page,
  browser,
}) => {
  const email = `una-${unique()}@example.com`;
  await signUp(page, email, `Una Works ${unique()}`);
  // The laptop forges its address: the server records the socket's peer, never a client-sent header.
  const forged = { "x-memgw-client-address": "203.0.113.7", "x-forwarded-for": "198.51.100.1" };
  const laptopContext = await browser.newContext({
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0",
    extraHTTPHeaders: forged,
  });
  const laptop = await laptopContext.newPage();
  await signInWithPassword(laptop, email);
  await expect(laptop.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  const phone = await (
    await browser.newContext({ userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1" })
  ).newPage();
  await signInWithPassword(phone, email);
  await expect(phone.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

  await page.getByRole("link", { name: "Account" }).click();
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  const rows = page.getByTestId("session-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: "This session" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Firefox on Linux" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "127.0.0.1" })).toHaveCount(3);
  await expect(rows.filter({ hasText: /203\.0\.113\.7|198\.51\.100\.1|unknown/ })).toHaveCount(0);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screenshots/account-${width}.png`, fullPage: true });
  }

  // Signing out the laptop from here: its next request is signed out.
  await rows.filter({ hasText: "Firefox on Linux" }).getByRole("button", { name: "Sign out" }).click();
  await expect(status(page)).toHaveText("Signed out Firefox on Linux.");
  await expect(rows).toHaveCount(2);
  await laptop.reload();
  await expect(laptop.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();

  // A password change needs the current password, and signs the phone out.
  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password").fill("a brand new password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("main").getByText("The current password is not right.").first()).toBeVisible();
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByLabel("New password").fill("a brand new password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(status(page)).toHaveText("Password changed. 1 other session was signed out.");
  await expect(rows).toHaveCount(1);
  await phone.reload();
  await expect(phone.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
  await signInWithPassword(phone, email);
  await expect(alertOn(phone)).toHaveText("The email or password is not right.");
  await signInWithPassword(phone, email, "a brand new password");
  await expect(phone.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

  // "Sign out everywhere" ends this session too.
  await page.reload();
  await expect(rows).toHaveCount(2);
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
  await phone.reload();
  await expect(phone.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
});

test("sign-up answers the same for an address that has an account, and mails that address instead", async ({
  page,
}) => {
  const taken = `vera-${unique()}@example.com`;
  await signUp(page, taken, `Vera Co ${unique()}`);
  await signOut(page);

  const replies: string[] = [];
  for (const email of [taken, `newcomer-${unique()}@example.com`]) {
    await page.goto("/sign-up");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("somebody else's password");
    await page.getByLabel("Organization name").fill(`Squat ${unique()}`);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(status(page)).toContainText("Check your inbox");
    replies.push((await page.getByTestId("sign-up-sent").innerText()).replace(email, "<address>"));
  }
  expect(replies[0]).toBe(replies[1]);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screenshots/sign-up-sent-${width}.png`, fullPage: true });
  }

  await expect.poll(() => mailsTo(taken).length).toBe(2);
  expect(mailsTo(taken)[1]).toContain("which already has an account");
  // The account kept its password; the one typed into the form does not sign in.
  await signInWithPassword(page, taken, "somebody else's password");
  await expect(alertOn(page)).toHaveText("The email or password is not right.");
  await signInWithPassword(page, taken);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
});

test("someone else's sign-up never gives them the account: the owner's magic link drops their password", async ({
  page,
  browser,
}) => {
  const victim = `wren-${unique()}@example.com`;
  // The attacker signs up with the victim's address and a password of their own.
  const attacker = await (await browser.newContext()).newPage();
  await attacker.goto("/sign-up");
  await attacker.getByLabel("Email").fill(victim);
  await attacker.getByLabel("Password").fill("the attacker's password");
  await attacker.getByLabel("Organization name").fill(`Trap ${unique()}`);
  await attacker.getByRole("button", { name: "Create account" }).click();
  await expect(status(attacker)).toContainText("Check your inbox");

  // The victim opens the mailed link: it asks for the password, which they do not know.
  const finish = await nextFinishLinkTo(victim);
  expect(mailsTo(victim)[0]).toContain("The link asks for the password you chose when signing up.");
  await page.goto(finish);
  await expect(page.getByRole("heading", { name: "Finish signing up" })).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screenshots/finish-sign-up-${width}.png`, fullPage: true });
  }
  await page.getByLabel("Password").fill("a guess of the victim");
  await page.getByRole("button", { name: "Finish signing up" }).click();
  await expect(page.getByRole("main").getByText("That is not the password chosen at sign-up.").first()).toBeVisible();

  // The victim signs in with a magic link instead: the address is theirs, the attacker's password is gone.
  await page.goto("/sign-in?method=magic_link");
  await page.getByLabel("Email").fill(victim);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(status(page)).toContainText("a sign-in link is on its way");
  await page.goto(await nextLinkTo(victim, 1));
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await signInWithPassword(attacker, victim, "the attacker's password");
  await expect(alertOn(attacker)).toHaveText("The email or password is not right.");
  // The finish link, had the attacker got it, no longer makes their password work either.
  await attacker.goto(finish);
  await attacker.getByLabel("Password").fill("the attacker's password");
  await attacker.getByRole("button", { name: "Finish signing up" }).click();
  await expect(alertOn(attacker)).toContainText("already finished");

  // The account page sets a password without a current one.
  await page.goto("/account");
  await page.getByLabel("New password").fill("the victim's own password");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(status(page)).toContainText("Password set");
  await signOut(page);
  await signInWithPassword(page, victim, "the victim's own password");
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
});
