// The identities pages in a real browser: memories remembered through the API with identities show on the
// identity page with their activity; "Forget this identity" deletes exactly that identity's memories
// (checked through the API) and says how many went.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config";
import { expectNoSidewaysScroll, signInOnce, unique } from "./console";

const headers = { authorization: `Bearer ${E2E_API_KEY}` };
const SHOTS = "test-results/screenshots";

async function fitsPhone(page: Page) {
  await expectNoSidewaysScroll(page);
}

/** Both widths of the page as it is now. */
async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SHOTS}/identities-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await fitsPhone(page);
  await page.screenshot({ path: `${SHOTS}/identities-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function remember(request: APIRequestContext, namespaceId: string, identityId: string, contents: string[]) {
  const response = await request.post("/api/v1/remember", {
    headers,
    data: { namespace_id: namespaceId, identity_id: identityId, memories: contents.map((content) => ({ content })) },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()).data as { id: string }[]).map((memory) => memory.id);
}

async function memoryStatus(request: APIRequestContext, id: string) {
  return (await request.get(`/api/v1/memories/${id}`, { headers })).status();
}

const run = unique();
// An id with a space, a slash, a percent sign and a non-ASCII letter: its page URL must encode it.
const person = `ida ${run}/ü%41`;
const other = `olaf-${run}`;
const memories: Record<string, string[]> = {};
let orgSlug: string;

test.beforeAll(async ({ request }) => {
  const namespaces: string[] = [];
  for (const name of [`people-${run}`, `orders-${run}`]) {
    const created = await request.post("/api/v1/namespaces", { headers, data: { name } });
    expect(created.status()).toBe(201);
    namespaces.push((await created.json()).data.id);
  }
  memories.person = [
    ...(await remember(request, namespaces[0], person, ["Ida prefers window seats", "Ida is allergic to peanuts"])),
    ...(await remember(request, namespaces[1], person, ["Ida ordered a red bicycle"])),
  ];
  memories.other = await remember(request, namespaces[0], other, ["Olaf prefers aisle seats"]);
  const recall = await request.post("/api/v1/recall", {
    headers,
    data: { namespace_id: namespaces[0], query: "seats", identity_id: person },
  });
  expect(recall.status()).toBe(200);
  // A refused call (no such namespace): an error in the activity.
  const refused = await request.post("/api/v1/recall", {
    headers,
    data: { namespace_id: `ns_missing_${run}`, query: "seats", identity_id: person },
  });
  expect(refused.status()).toBe(404);
});

test.beforeEach(async ({ page }) => {
  orgSlug = await signInOnce(page, "e2e@example.com", "an e2e password");
});

test("the identities list shows the identities with memories and activity; search by prefix", async ({ page }) => {
  await page.goto(`/${orgSlug}/identities`);
  await expect(page.getByRole("heading", { name: "Identities" })).toBeVisible();
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: person, exact: true }) });
  await expect(row.getByRole("cell").nth(1)).toHaveText("3");
  await expect(row.getByRole("cell").nth(2)).toHaveText("4"); // remember ×2, recall, the refused recall
  await expect(row.getByRole("cell").nth(3)).toContainText("UTC");
  await screenshots(page, "list");

  await page.getByLabel("Identity id starts with").fill(`ida ${run}`);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("link", { name: person, exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: other })).toHaveCount(0);

  await page.getByLabel("Identity id starts with").fill(`nobody-${run}`);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("heading", { name: "No identity matches" })).toBeVisible();
});

test("an identity's page: activity with filters, chart, memories; forgetting deletes exactly its memories", async ({
  page,
  request,
}) => {
  await page.goto(`/${orgSlug}/identities?q=${encodeURIComponent(`ida ${run}`)}`);
  await page.getByRole("link", { name: person, exact: true }).click();
  await expect(page.getByRole("heading", { name: "Identity", exact: true })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(person);
  await expect(page.getByRole("main")).toContainText("3 memories in 2 namespaces");

  const activityRows = page.locator("#activity tbody tr");
  await expect(activityRows).toHaveCount(4);
  await expect(page.locator("#activity")).toContainText(`people-${run}`);
  await expect(page.locator("#activity")).toContainText("Bootstrap key");
  await expect(page.getByText("Operations per day, last 30 days: 4 operations")).toBeVisible();
  for (const content of ["Ida prefers window seats", "Ida is allergic to peanuts", "Ida ordered a red bicycle"]) {
    await expect(page.getByRole("link", { name: content })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: "Olaf prefers aisle seats" })).toHaveCount(0);
  const memoryLink = page.getByRole("link", { name: "Ida ordered a red bicycle" });
  await expect(memoryLink).toHaveAttribute("href", new RegExp(`/${orgSlug}/namespaces/[^/]+/memories/mem_`));
  await screenshots(page, "identity");

  // Filters: failed calls, then recall only.
  await page.getByLabel("Status").selectOption("error");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(activityRows).toHaveCount(1);
  await expect(activityRows.first()).toContainText("404");
  await page.getByLabel("Status").selectOption("");
  await page.getByLabel("Operation").selectOption("recall");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(activityRows).toHaveCount(2);
  await page.getByLabel("Operation").selectOption("forget");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("heading", { name: "No activity matches" })).toBeVisible();

  // A malformed id (too long, a NUL) is the "Not found" page, never an error.
  const identityUrl = page.url();
  for (const segment of ["x".repeat(256), "a%00b", "a%E2%80%AEb"]) {
    const malformed = await page.goto(`/${orgSlug}/identities/${segment}`);
    expect(malformed!.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  }
  await page.goto(identityUrl);

  // Forget: the button stays disabled until the id is typed.
  await page.getByRole("button", { name: "Forget this identity" }).click();
  const dialog = page.getByRole("dialog");
  const confirm = dialog.getByRole("button", { name: "Forget this identity" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${person} to confirm`).fill(person.slice(0, -1));
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${person} to confirm`).fill(person);
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("main").getByRole("status")).toContainText("Forgot 3 memories in 2 namespaces.");
  await expect(page.getByRole("heading", { name: "No memories" })).toBeVisible();

  for (const id of memories.person) expect(await memoryStatus(request, id)).toBe(404);
  for (const id of memories.other) expect(await memoryStatus(request, id)).toBe(200);
});

test("an identity's profile: what holds now, since when, and the timeline of what replaced what", async ({
  page,
  request,
}) => {
  const created = await request.post("/api/v1/namespaces", { headers, data: { name: `homes-${run}` } });
  expect(created.status()).toBe(201);
  const namespaceId = (await created.json()).data.id as string;
  const dana = `dana-${run}`;
  for (const [content, validAt] of [
    ["Dana lives in Porto.", "2024-03-10"],
    ["Dana lives in Lisbon.", "2026-02-14"],
  ]) {
    const response = await request.post("/api/v1/remember", {
      headers,
      data: { namespace_id: namespaceId, identity_id: dana, content, valid_at: validAt, fact_key: "home_city" },
    });
    expect(response.status()).toBe(201);
  }
  await page.goto(`/${orgSlug}/identities/${encodeURIComponent(dana)}`);
  const facts = page.getByTestId("profile-facts");
  await expect(facts).toContainText("Dana lives in Lisbon.");
  await expect(facts).toContainText("home_city");
  await expect(facts).not.toContainText("Porto");
  await expect(page.getByTestId("profile-timeline")).toContainText("Dana lives in Porto.");
  await screenshots(page, "profile");

  // The replaced memory's own page says until when it held and what replaced it.
  const listed = await request.get(`/api/v1/memories?namespace_id=${namespaceId}`, { headers });
  const rows = (await listed.json()).data as { id: string; content: string }[];
  const porto = rows.find((row) => row.content === "Dana lives in Porto.")!;
  const lisbon = rows.find((row) => row.content === "Dana lives in Lisbon.")!;
  await page.goto(`/${orgSlug}/namespaces/${namespaceId}/memories/${porto.id}`);
  const validity = page.getByTestId("memory-validity");
  await expect(validity).toContainText("since 10 Mar 2024");
  await expect(validity).toContainText("until 14 Feb 2026");
  await expect(validity).toContainText(`replaced by ${lisbon.id} (a newer memory of its slot)`);
  await expect(page.getByTestId("memory-details")).toContainText("home_city");
  await expect(page.getByTestId("memory-origin")).toHaveText("written by a caller");
  await screenshots(page, "replaced-memory");
});
