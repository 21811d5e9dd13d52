// The console on a phone (390 px): no page scrolls sideways, the nav strip shows the current page, tables are
// cards with their actions in reach, audit details read as labelled lines; dates are in one format everywhere;
// an identity that is a member's user id shows the member's address. With E2E_SHOTS_DIR set, every page is
// photographed at 390 px, and the keys, audit and identities pages at 1280 px too.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config";
import { needlesslyBrokenWords, signInOnce, unique } from "./console";

const headers = { authorization: `Bearer ${E2E_API_KEY}` };
const SHOTS = process.env.E2E_SHOTS_DIR;
const PHONE = { width: 390, height: 844 };

/** "26 Nov 2026, 08:15 UTC" (the audit log adds seconds): the console's one absolute format. */
const ABSOLUTE = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2}(:\d{2})? UTC$/;
const RELATIVE = /^(just now|\d+ min ago|\d+ h ago|yesterday|\d+ days ago)$/;

async function shoot(page: Page, name: string, width: number) {
  if (!SHOTS) return;
  await page.setViewportSize({ width, height: width === PHONE.width ? PHONE.height : 900 });
  await page.screenshot({ path: `${SHOTS}/narrow-${name}-${width}.png`, fullPage: true });
  await page.setViewportSize(PHONE);
}

/** The element lies within the screen's width where it is (no sideways scrolling of any box first). */
async function expectWithinWidth(locator: Locator, what: string) {
  const box = await locator.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what}: right edge`).toBeLessThanOrEqual(PHONE.width);
}

/** Every date in the page's main part is the absolute format, or a relative one with the absolute as its tooltip. */
async function datesOf(page: Page) {
  return page
    .getByRole("main")
    .locator("time")
    .evaluateAll((times) => times.map((t) => ({ text: t.textContent!.trim(), title: t.getAttribute("title") })));
}

function expectOneDateFormat(dates: { text: string; title: string | null }[], where: string) {
  for (const date of dates) {
    if (RELATIVE.test(date.text)) expect(date.title, `${where}: tooltip of "${date.text}"`).toMatch(ABSOLUTE);
    else expect(date.text, `${where}: a date`).toMatch(ABSOLUTE);
  }
}

test("at 390 px every console page fits the screen, with every page of the nav in view and its own title", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const run = unique();
  const namespace = await request.post("/api/v1/namespaces", { headers, data: { name: `narrow-${run}` } });
  expect(namespace.status()).toBe(201);
  const namespaceId = (await namespace.json()).data.id as string;
  const identity = `narrow-person-${run}`;
  const remembered = await request.post("/api/v1/remember", {
    headers,
    data: { namespace_id: namespaceId, content: "Prefers replies in the morning.", identity_id: identity },
  });
  expect(remembered.status()).toBe(201);

  await page.setViewportSize(PHONE);
  const slug = await signInOnce(page, "e2e@example.com", "an e2e password");
  const pages: [name: string, path: string, current: string | null][] = [
    ["overview", `/${slug}`, "Overview"],
    ["namespaces", `/${slug}/namespaces`, "Namespaces"],
    ["namespace", `/${slug}/namespaces/${namespaceId}`, "Namespaces"],
    ["memories", `/${slug}/namespaces/${namespaceId}/memories`, "Namespaces"],
    ["namespace-events", `/${slug}/namespaces/${namespaceId}/events`, "Namespaces"],
    ["identities", `/${slug}/identities`, "Identities"],
    ["identity", `/${slug}/identities/${encodeURIComponent(identity)}`, "Identities"],
    ["scopes", `/${slug}/scopes`, "Scopes"],
    ["integrations", `/${slug}/integrations`, "Integrations"],
    ["webhooks", `/${slug}/webhooks`, "Webhooks"],
    ["keys", `/${slug}/keys`, "API keys"],
    ["members", `/${slug}/members`, "Members"],
    ["audit", `/${slug}/audit`, "Audit log"],
    ["settings", `/${slug}/settings`, "Settings"],
    ["account", "/account", null],
  ];
  for (const [name, path, current] of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    // Soft: a page that overflows is reported with every other one, not only the first.
    await expect
      .configure({ soft: true })
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth), {
        message: `${name}: no sideways scroll`,
        timeout: 5_000,
      })
      .toBeLessThanOrEqual(PHONE.width);
    // Each page names itself in the tab.
    await expect(page).toHaveTitle(/^[A-Z][\w ]+ · Memory Gateway$/);
    if (current) {
      const nav = page.getByRole("navigation", { name: "Console" });
      await expect(nav.locator('[aria-current="page"]')).toHaveText(current);
      // Every page of the console in sight: the links wrap into rows, none hidden off the side.
      const links = nav.getByRole("link");
      expect(await links.count()).toBeGreaterThanOrEqual(10);
      for (const link of await links.all())
        await expectWithinWidth(link, `${name}: the nav's ${await link.innerText()}`);
    }
    // A stacked table's labels never run over the next line: each label lies within its own cell.
    const overlaps = await page.locator("table[data-stacked] td[data-label]").evaluateAll(
      (cells) =>
        cells.filter((cell) => {
          const label = getComputedStyle(cell, "::before");
          const height = parseFloat(label.height) + parseFloat(label.paddingTop);
          return Number.isFinite(height) && height > cell.getBoundingClientRect().height + 0.5;
        }).length,
    );
    expect(overlaps, `${name}: stacked labels running over`).toBe(0);
    expect.soft(await needlesslyBrokenWords(page.getByRole("main")), `${name}: words split across lines`).toEqual([]);
    await shoot(page, name, 390);
  }
});

test("at 390 px the keys and audit tables are cards with their actions in reach", async ({ page, request }) => {
  const run = unique();
  const namespace = await request.post("/api/v1/namespaces", { headers, data: { name: `narrow-keys-${run}` } });
  expect(namespace.status()).toBe(201);
  const namespaceId = (await namespace.json()).data.id as string;
  const keyName = `a rather long key name for the phone ${run}`;
  const slug = await signInOnce(page, "e2e@example.com", "an e2e password");
  // A key with long lists, as the issue met it: permissions, a namespace and scopes.
  // An organization of many namespaces, as the bootstrap one is by now.
  for (let i = 0; i < 24; i++) {
    const made = await request.post("/api/v1/namespaces", { headers, data: { name: `narrow-many-${run}-${i}` } });
    expect(made.status()).toBe(201);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/${slug}/keys`);
  await page.getByRole("button", { name: "Generate key" }).click();
  const dialog = page.getByRole("dialog");
  // On a laptop's 800 px the whole dialog is in sight, its button too, without scrolling it.
  await expect(dialog.getByRole("button", { name: "Generate", exact: true })).toBeInViewport();
  await expect.poll(() => dialog.evaluate((box) => box.scrollHeight <= box.clientHeight)).toBe(true);
  await dialog.getByLabel("Name", { exact: true }).fill(keyName);
  await dialog.getByRole("checkbox", { name: `narrow-keys-${run}` }).check();
  await dialog.getByLabel("Scopes (optional)").fill("team=sales, region=north-east");
  await dialog.getByRole("button", { name: "Generate", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "I have stored it" }).click();

  await page.setViewportSize(PHONE);
  await page.goto(`/${slug}/keys`);
  const row = page.getByTestId("key-row").filter({ hasText: keyName });
  await expect(row).toBeVisible();
  // Who made it is said whole, not cut.
  await expect(row.getByText(/^Created .* by e2e@example\.com$/)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  for (const action of ["Edit", "Revoke"]) {
    await expectWithinWidth(row.getByRole("button", { name: action }), `keys: ${action}`);
  }
  await expectWithinWidth(row, "keys: the key's card");
  await row.getByRole("button", { name: "Edit" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByRole("dialog")).toContainText(keyName);
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await shoot(page, "keys-cards", 390);
  await shoot(page, "keys", 1280);
  const keysDates = await datesOf(page);

  await page.goto(`/${slug}/audit?action=api_key.create`);
  const entry = page.getByTestId("audit-row").filter({ hasText: keyName });
  await expect(entry).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const details = entry.getByTestId("audit-details");
  await expectWithinWidth(details, "audit: the entry's details");
  // Labelled lines, the keys as words (namespace_ids: "Namespace IDs"), the values whole.
  await expect(details.locator("dt", { hasText: /^Namespace IDs$/ })).toBeVisible();
  await expect(details.locator("dd", { hasText: namespaceId }).first()).toBeVisible();
  await expect(details.locator("dt", { hasText: /^Scopes$/ })).toBeVisible();
  await expect(details.locator("dd", { hasText: "region=north-east" })).toBeVisible();
  // The JSON as stored, behind Raw.
  const raw = details.getByLabel("Details as stored");
  await expect(raw).toBeHidden();
  await details.getByText("Raw", { exact: true }).click();
  await expect(raw).toBeVisible();
  await expect(raw).toContainText('"namespace_ids"');
  await expectWithinWidth(raw, "audit: the raw details");
  await shoot(page, "audit-cards", 390);
  await shoot(page, "audit", 1280);
  const auditDates = await datesOf(page);

  // Dates: one format on both pages (and on the members page: absolute and relative).
  await page.goto(`/${slug}/members`);
  // The owner's row has joined: its date is absolute. Read the dates once the rows are there.
  await expect(page.getByTestId("member-status").locator("time").first()).toBeVisible();
  const membersDates = await datesOf(page);
  expect(keysDates.length + auditDates.length + membersDates.length).toBeGreaterThan(2);
  expectOneDateFormat(keysDates, "keys");
  expectOneDateFormat(auditDates, "audit");
  expectOneDateFormat(membersDates, "members");
  expect(auditDates.some((d) => ABSOLUTE.test(d.text))).toBe(true);
  expect(membersDates.some((d) => ABSOLUTE.test(d.text))).toBe(true);
});

test("an identity that is a member's user id shows the address, the raw id beside it", async ({ page, request }) => {
  const slug = await signInOnce(page, "e2e@example.com", "an e2e password");
  // The owner's user id, as the audit log's "Who" filter knows it.
  await page.goto(`/${slug}/audit`);
  const option = page.getByLabel("Who").locator("option", { hasText: "e2e@example.com" });
  const userId = (await option.getAttribute("value"))!.replace(/^user:/, "");
  expect(userId).toMatch(/^usr_/);
  const namespace = await request.post("/api/v1/namespaces", { headers, data: { name: `narrow-ids-${unique()}` } });
  const namespaceId = (await namespace.json()).data.id as string;
  const remembered = await request.post("/api/v1/remember", {
    headers,
    data: { namespace_id: namespaceId, content: "Works from Lisbon in winter.", identity_id: userId },
  });
  expect(remembered.status()).toBe(201);

  await page.goto(`/${slug}/identities?q=${encodeURIComponent(userId)}`);
  const link = page.getByRole("link", { name: "e2e@example.com", exact: true });
  await expect(link).toHaveAttribute("href", `/${slug}/identities/${encodeURIComponent(userId)}`);
  await expect(page.getByRole("row").filter({ has: link })).toContainText(userId);
  expectOneDateFormat(await datesOf(page), "identities");
  await shoot(page, "identities-person", 1280);
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shoot(page, "identities-person", 390);

  await link.click();
  await expect(page.getByRole("heading", { name: "Identity", exact: true })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("e2e@example.com");
  await expect(page.getByTestId("identity-id")).toHaveText(userId);
  await expect(page.getByRole("button", { name: "Copy the identity id" })).toBeVisible();
  expectOneDateFormat(await datesOf(page), "identity");
  await shoot(page, "identity-person", 390);
  await shoot(page, "identity-person", 1280);
});
