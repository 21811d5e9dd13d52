// Steps the console tests share.
import { expect, type Cookie, type Locator, type Page } from "@playwright/test";
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
  // People land on their organization's overview.
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
}

const sessions = new Map<string, { cookies: Cookie[]; slug: string }>();

/**
 * Signs `email` in with the password once per test run and reuses that session afterwards (password
 * sign-ins are limited to 10 per email in 15 minutes, and several specs sign the bootstrap owner in).
 * Leaves the page on the organization the sign-in landed on; returns its slug.
 */
export async function signInOnce(page: Page, email: string, password = PASSWORD): Promise<string> {
  const session = sessions.get(email);
  if (session) {
    await page.context().addCookies(session.cookies);
    await page.goto(`/${session.slug}`);
    return session.slug;
  }
  await signInWithPassword(page, email, password);
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
  const slug = new URL(page.url()).pathname.split("/")[1];
  sessions.set(email, { cookies: await page.context().cookies(), slug });
  return slug;
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

/** Generates a key with the form's default permissions, dismisses its secret and returns it. */
export async function generateKey(page: Page, name: string) {
  if (!new URL(page.url()).pathname.endsWith("/keys")) await openPage(page, "API keys");
  await page.getByRole("button", { name: "Generate key" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  const secret = (await page.getByTestId("new-key-secret").textContent())!;
  await page.getByRole("dialog").getByRole("button", { name: "I have stored it" }).click();
  return secret;
}

/** Opens a console page from the sidebar and waits for its heading. */
export async function openPage(page: Page, link: string, heading = link) {
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: link, exact: true }).click();
  await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
}

/**
 * The page itself never scrolls sideways at this width (wide tables scroll inside their own box). Polled: after
 * a viewport change, charts and other measured boxes lay themselves out again a moment later.
 */
export async function expectNoSidewaysScroll(page: Page, what = "the page") {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), { message: what })
    .toBeLessThanOrEqual(0);
}

/**
 * The words inside `within` split across lines where they would have fit on one (as `break-all` splits any word
 * at a line's end); a word longer than its box may break, "nina-7u402b" after its hyphen, and code (ids, URLs in
 * monospace) is left out.
 */
export async function needlesslyBrokenWords(within: Locator): Promise<string[]> {
  return within.evaluate((root) => {
    const split: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement!;
      if (parent.closest("code, kbd, pre, .font-mono")) continue;
      // The width a line of it has: its block's content box (a stacked table's cell keeps its label in its padding).
      const block = parent.closest("dd, p, li, td, div");
      let box = Infinity;
      if (block) {
        const { paddingLeft, paddingRight } = getComputedStyle(block);
        box = block.clientWidth - parseFloat(paddingLeft) - parseFloat(paddingRight);
      }
      // A word: up to a space, or up to and with a hyphen, dash or slash, where a line may break anyway.
      for (const word of node.textContent!.matchAll(/[^\s–—/-]+[–—/-]?/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = [...range.getClientRects()].filter((rect) => rect.width > 0);
        const width = lines.reduce((sum, rect) => sum + rect.width, 0);
        if (new Set(lines.map((rect) => Math.round(rect.top))).size > 1 && width <= box) split.push(word[0]);
      }
    }
    return split;
  });
}

/**
 * The page photographed at desktop and phone width (test-results/screenshots/<name>-<width>.png); on the
 * phone the page itself never scrolls sideways (wide tables and code scroll inside their boxes).
 */
export async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `test-results/screenshots/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `test-results/screenshots/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}
