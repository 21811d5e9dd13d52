// The memory explorer in a real browser: memories remembered through the API (with identities, scopes
// and metadata) show newest first; its filters and search return what GET /memories and POST /recall
// return for the same filters; a memory's page shows its chunks; deleting asks first, then it is gone.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config";
import { expectNoSidewaysScroll, signInOnce, unique } from "./console";
import { nextLinkTo } from "./mail";

const headers = { authorization: `Bearer ${E2E_API_KEY}` };
const SHOTS = "test-results/screenshots";
const LONG = Array.from(
  { length: 120 },
  (_, i) => `Sentence ${i} of the long note describes the greenhouse and its tomatoes.`,
).join(" ");

interface Listed {
  id: string;
  content: string;
}

async function listIds(request: APIRequestContext, query: string) {
  const response = await request.get(`/api/v1/memories?${query}`, { headers });
  expect(response.status()).toBe(200);
  const body = await response.json();
  return { ids: (body.data as Listed[]).map((m) => m.id), pagination: body.pagination };
}

async function shownIds(page: Page, testId: "memory-row" | "match-row") {
  return page.getByTestId(testId).evaluateAll((rows) => rows.map((row) => row.getAttribute("data-memory-id")));
}

async function fitsPhone(page: Page) {
  await expectNoSidewaysScroll(page);
}

/** Both widths of the page as it is now. */
async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SHOTS}/explorer-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await fitsPhone(page);
  await page.screenshot({ path: `${SHOTS}/explorer-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

let namespaceId: string;
let orgSlug: string;
let longId: string;

test.beforeAll(async ({ request }) => {
  const created = await request.post("/api/v1/namespaces", { headers, data: { name: `explorer-${unique()}` } });
  expect(created.status()).toBe(201);
  namespaceId = (await created.json()).data.id;
  const people = ["alice", "bob", "carol"];
  const topics = ["the garden", "a trip to Lisbon", "the quarterly budget", "a new puppy"];
  const memories = Array.from({ length: 24 }, (_, i) => ({
    content: `Note ${i}: a memory about ${topics[i % 4]}.`,
    identity_id: people[i % 3],
    scopes: i % 2 === 0 ? { team: "sales" } : { team: "support", region: i % 4 === 1 ? "eu" : "us" },
    metadata: { source: i % 5 === 0 ? "email" : "chat", n: i },
  }));
  // Two calls, so the two groups have different created_at (newest first puts the second on top).
  for (const batch of [memories.slice(0, 12), memories.slice(12)]) {
    const response = await request.post("/api/v1/remember", {
      headers,
      data: { namespace_id: namespaceId, memories: batch },
    });
    expect(response.status()).toBe(201);
  }
  const long = await request.post("/api/v1/remember", {
    headers,
    data: { namespace_id: namespaceId, content: LONG, identity_id: "alice", metadata: { source: "notes" } },
  });
  expect(long.status()).toBe(201);
  longId = (await long.json()).data.id;
});

test.beforeEach(async ({ page }) => {
  orgSlug = await signInOnce(page, "e2e@example.com", "an e2e password");
});

const explorer = () => `/${orgSlug}/namespaces/${namespaceId}/memories`;

test("the explorer lists newest first, page by page, as GET /memories does", async ({ page, request }) => {
  await page.goto(explorer());
  await expect(page.getByRole("heading", { name: "Memories", level: 1 })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link")).toHaveText([
    "Namespaces",
    /^explorer-/,
  ]);
  const first = await listIds(request, `namespace_id=${namespaceId}&page_size=20`);
  expect(await shownIds(page, "memory-row")).toEqual(first.ids);
  expect(first.ids[0]).toBe(longId);
  await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText("Page 1 of 2 · 25 memories");
  await screenshots(page, "list");

  await page.getByRole("link", { name: "Older →" }).click();
  await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText("Page 2 of 2");
  const second = await listIds(
    request,
    `namespace_id=${namespaceId}&page_size=20&cursor=${first.pagination.nextCursor}`,
  );
  expect(await shownIds(page, "memory-row")).toEqual(second.ids);
  expect(new URL(page.url()).searchParams.get("cursor")).toBe(first.pagination.nextCursor);
  await page.getByRole("link", { name: "← Newest" }).click();
  await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText("Page 1 of 2");
  expect(await shownIds(page, "memory-row")).toEqual(first.ids);
});

test("filters by identity, scopes and metadata return what the API returns, in a bookmarkable URL", async ({
  page,
  request,
}) => {
  await page.goto(explorer());
  const cases: [Record<string, string>, string][] = [
    [{ Identity: "alice" }, "identity_id=alice"],
    [{ Scopes: "team=support, region=eu" }, "scope=team:support&scope=region:eu"],
    [{ Metadata: "source=email" }, "metadata=source:email"],
    [
      { Identity: "bob", Scopes: "team=sales", Metadata: "source=chat" },
      "identity_id=bob&scope=team:sales&metadata=source:chat",
    ],
  ];
  for (const [fields, query] of cases) {
    await page.goto(explorer());
    for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL((url) => url.search.length > 0);
    const expected = await listIds(request, `namespace_id=${namespaceId}&page_size=20&${query}`);
    expect(expected.ids.length, query).toBeGreaterThan(0);
    expect(await shownIds(page, "memory-row"), query).toEqual(expected.ids);
    // The URL alone brings the same page back.
    const bookmarked = page.url();
    await page.goto(bookmarked);
    expect(await shownIds(page, "memory-row"), query).toEqual(expected.ids);
  }
  await page.goto(`${explorer()}?scopes=${encodeURIComponent("team=nobody")}`);
  await expect(page.getByRole("heading", { name: "No memories match these filters" })).toBeVisible();
  await screenshots(page, "no-match");

  await page.goto(explorer());
  await page.getByLabel("Scopes", { exact: true }).fill("team");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText('Scopes: "team" is not of the form key=value');
  await page.goto(`${explorer()}?cursor=forged`);
  await expect(page.getByRole("main").getByRole("alert")).toContainText("This page's link is out of date");
});

test("search runs recall: the same matches and scores as POST /recall", async ({ page, request }) => {
  await page.goto(explorer());
  await page.getByLabel("Search", { exact: true }).fill("trip to Lisbon");
  await page.getByLabel("Scopes", { exact: true }).fill("team=support");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("region", { name: "Search results" })).toBeVisible();
  const recall = await request.post("/api/v1/recall", {
    headers,
    data: { namespace_id: namespaceId, query: "trip to Lisbon", top_k: 20, scopes: { team: "support" } },
  });
  const matches = (await recall.json()).data as { memory_id: string; score: number }[];
  expect(matches.length).toBeGreaterThan(0);
  expect(await shownIds(page, "match-row")).toEqual(matches.map((m) => m.memory_id));
  await expect(page.getByTestId("match-score")).toHaveText(matches.map((m) => m.score.toFixed(3)));
  await screenshots(page, "search");
});

test("a memory's page shows its chunks; deleting it asks first, then it is gone", async ({ page, request }) => {
  await page.goto(explorer());
  await page
    .getByTestId("memory-row")
    .filter({ hasText: "Sentence 0 of the long note" })
    .getByRole("link")
    .first()
    .click();
  await expect(page.getByRole("heading", { name: "Memory", level: 1 })).toBeVisible();
  await expect(page.getByTestId("memory-content")).toHaveText(LONG);
  const chunks = page.getByTestId("memory-chunk");
  expect(await chunks.count()).toBeGreaterThan(1);
  await expect(chunks.first()).toContainText("Chunk 1");
  await expect(page.getByRole("main")).toContainText("alice");
  await screenshots(page, "detail");

  await page.getByRole("button", { name: "Delete memory" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("cannot be undone");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  expect((await request.get(`/api/v1/memories/${longId}`, { headers })).status()).toBe(200);

  await page.getByRole("button", { name: "Delete memory" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete memory" }).click();
  await page.waitForURL((url) => url.pathname === explorer());
  expect(await shownIds(page, "memory-row")).not.toContain(longId);
  expect((await request.get(`/api/v1/memories/${longId}`, { headers })).status()).toBe(404);
});

test("an empty namespace explains itself; an unknown namespace or memory is a 404 page", async ({ page, request }) => {
  const created = await request.post("/api/v1/namespaces", { headers, data: { name: `empty-${unique()}` } });
  const empty = (await created.json()).data.id;
  await page.goto(`/${orgSlug}/namespaces/${empty}/memories`);
  await expect(page.getByRole("heading", { name: "No memories yet" })).toBeVisible();
  await screenshots(page, "empty");
  for (const path of [`/${orgSlug}/namespaces/ns_unknown/memories`, `${explorer()}/mem_unknown`]) {
    expect((await page.goto(path))!.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" }), path).toBeVisible();
  }
});

test("a member without a grant gets a 404 page for the explorer and a memory, with none of its content", async ({
  page,
  browser,
  request,
}) => {
  const listed = await listIds(request, `namespace_id=${namespaceId}&page_size=1`);
  const memory = await (await request.get(`/api/v1/memories/${listed.ids[0]}`, { headers })).json();
  const email = `explorer-member-${unique()}@example.com`;
  await page.goto(`/${orgSlug}/members`);
  await page.getByLabel("Email").fill(email);
  await page.locator("select[name=role]").selectOption("member");
  await page.getByRole("button", { name: "Send invitation" }).click();
  const member = await (await browser.newContext()).newPage();
  await member.goto(await nextLinkTo(email));
  await expect(member.getByTestId("signed-in-as")).toHaveText(email);
  for (const path of [explorer(), `${explorer()}/${memory.data.id}`, `${explorer()}?q=Note`]) {
    expect((await member.goto(path))!.status(), path).toBe(404);
    await expect(member.getByRole("heading", { name: "Not found" }), path).toBeVisible();
    expect(await member.content(), path).not.toContain(memory.data.content);
  }
});
