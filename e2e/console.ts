// Steps the console tests share.
import { expect, type Page } from "@playwright/test";
import { nextFinishLinkTo } from "./mail";

// Next.js's route announcer is an alert too: the page's own are inside <main>.
export const alertOn = (page: Page) => page.getByRole("main").getByRole("alert");
export const unique = () => Math.random().toString(36).slice(2, 8);
export const PASSWORD = "a long console password";

/**
 * Signs up a new address and finishes from the link mailed to it (the address's first mail), which
 * asks for the password chosen in the form.
 */
export async function signUp(page: Page, email: string, organization: string) {
  // Each sign-up from a client address of its own (see TRUSTED_PROXIES in playwright.config.ts).
  const address = `198.51.100.${1 + Math.floor(Math.random() * 254)}`;
  await page.setExtraHTTPHeaders({ "x-forwarded-for": address });
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Organization name").fill(organization);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(
    `Check your inbox: we sent a message to ${email}.`,
  );
  await page.goto(await nextFinishLinkTo(email));
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Finish signing up" }).click();
  await page.setExtraHTTPHeaders({});
  // People land on their organization's overview.
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
}

export async function signInWithPassword(page: Page, email: string, password = PASSWORD) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function signOut(page: Page) {
  await page.getByRole("banner").getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
}

/** Generates a key with the form's default permissions and dismisses its secret. */
export async function generateKey(page: Page, name: string) {
  if (!new URL(page.url()).pathname.endsWith("/keys")) await openPage(page, "API keys");
  await page.getByRole("button", { name: "Generate key" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "I have stored it" }).click();
}

/** Opens a console page from the sidebar and waits for its heading. */
export async function openPage(page: Page, link: string, heading = link) {
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: link, exact: true }).click();
  await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
}
