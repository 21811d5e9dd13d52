// The entity pages in a real browser, on the production build: memories remembered through the API with a key
// made in the console name people, places and an organization; the namespace's Entities tab lists them as
// GET /entities does (search, kind), an entity's page shows its memories and a graph of the entities named with
// it (a click on a node opens that one) beside a table of the same figures, and an identity's page its top
// entities. A member sees none of it until granted the namespace; another organization's entity is not found.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config";
import { expectNoSidewaysScroll, signInOnce, signUp, unique } from "./console";
import { nextLinkTo } from "./mail";

/** Where to photograph the pages at desktop and phone width; unset (CI), no photographs. */
const SHOTS = process.env.E2E_SHOTS_DIR;

interface EntityJson {
  id: string;
  name: string;
  kind: string;
  memory_count: number;
}
interface EntityDetail extends EntityJson {
  co_occurring: { entity: { id: string; name: string; kind: string }; shared_memories: number }[];
}

const run = unique();
const identity = `ida-${run}`;
const ownerEmail = `ent-owner-${run}@example.com`;
let slug: string;
let namespaceId: string;
let namespaceName: string;
let secret: string;

test.describe.configure({ mode: "serial" });

/** Both widths of the page as it is now; at phone width the page never scrolls sideways. */
async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, name);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/entities-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/entities-${name}-1280.png`, fullPage: true });
}

async function api<T>(request: APIRequestContext, path: string, key = secret): Promise<T> {
  const response = await request.get(`/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status(), path).toBe(200);
  return (await response.json()).data as T;
}

async function remember(request: APIRequestContext, data: Record<string, unknown>, key = secret) {
  const response = await request.post("/api/v1/remember", { headers: { authorization: `Bearer ${key}` }, data });
  expect(response.status()).toBe(201);
}

const byName = (entities: EntityJson[], name: string) => entities.find((entity) => entity.name === name)!;
const tableNames = (page: Page) =>
  page.getByTestId("entity-row").evaluateAll((rows) => rows.map((row) => row.querySelector("a")!.textContent));

test("the Entities tab lists, searches and filters; an entity's page, its graph and an identity's entities", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await signUp(page, ownerEmail, `Entities Co ${run}`);
  slug = new URL(page.url()).pathname.split("/")[1];

  // A key made in the console, reaching a namespace made in its dialog.
  namespaceName = `travel-${run}`;
  await page.goto(`/${slug}/keys`);
  await page.getByRole("button", { name: "Generate key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name", { exact: true }).fill("travel app");
  await dialog.getByLabel("New namespace").fill(namespaceName);
  await dialog.getByRole("button", { name: "Create namespace" }).click();
  await expect(dialog.getByRole("checkbox", { name: namespaceName })).toBeChecked();
  await dialog.getByRole("button", { name: "Generate", exact: true }).click();
  secret = (await page.getByTestId("new-key-secret").innerText()).trim();
  await page.getByRole("dialog").getByRole("button", { name: "I have stored it" }).click();
  namespaceId = (await api<{ id: string; name: string }[]>(request, "/namespaces")).find(
    (namespace) => namespace.name === namespaceName,
  )!.id;

  // Before any memory: the tab says where entities come from.
  await page.goto(`/${slug}/namespaces/${namespaceId}`);
  const tabs = page.getByRole("navigation", { name: "Namespace" });
  await expect(tabs.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await tabs.getByRole("link", { name: "Entities" }).click();
  await expect(page.getByRole("heading", { name: "Entities", level: 1 })).toBeVisible();
  await expect(tabs.getByRole("link", { name: "Entities" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { name: "No entities yet" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("Entities appear as memories are remembered");

  await remember(request, {
    namespace_id: namespaceId,
    memories: [
      { content: "Caroline went to Paris with Melanie in May 2023.", identity_id: identity },
      { content: "Caroline and Melanie visited the Louvre in Paris last summer.", identity_id: identity },
      { content: "Melanie works at Google in London.", identity_id: identity },
      { content: "Caroline adopted a dog named Max from a shelter in Boston." },
      { content: "Melanie painted a sunrise over Lake Tahoe." },
    ],
  });
  await remember(request, {
    namespace_id: namespaceId,
    session_id: `paris-chat-${run}`,
    messages: [{ role: "user", content: "Caroline is flying to Paris next week." }],
  });
  const listed = await api<EntityJson[]>(request, `/entities?namespace_id=${namespaceId}&page_size=100`);
  for (const name of ["Caroline", "Melanie", "Paris", "London", "Google"]) {
    expect(byName(listed, name), name).toBeDefined();
  }

  // The tab: the API's entities in the API's order, each with its kind and memory count.
  await page.reload();
  expect(await tableNames(page)).toEqual(listed.slice(0, 25).map((entity) => entity.name));
  const carolineRow = page.getByTestId("entity-row").filter({ has: page.getByRole("link", { name: "Caroline" }) });
  await expect(carolineRow.getByRole("cell").nth(1)).toHaveText("Person");
  await expect(carolineRow.getByRole("cell").nth(2)).toHaveText(String(byName(listed, "Caroline").memory_count));
  await expect(carolineRow.getByRole("cell").nth(3)).toContainText("UTC");
  await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText(`${listed.length} entities`);
  await screenshots(page, "tab");

  // Search by a part of the name, any case.
  const search = page.getByRole("search", { name: "Entities" });
  await search.getByLabel("Name contains").fill("caro");
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/[?&]q=caro/);
  await expect.poll(() => tableNames(page)).toEqual(["Caroline"]);

  // Filter by kind: places only.
  await search.getByLabel("Name contains").fill("");
  await search.getByLabel("Kind").selectOption("place");
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/[?&]kind=place/);
  const places = await api<EntityJson[]>(request, `/entities?namespace_id=${namespaceId}&kind=place`);
  expect(places.map((entity) => entity.name)).toEqual(expect.arrayContaining(["Paris", "London", "Boston"]));
  await expect.poll(() => tableNames(page)).toEqual(places.map((entity) => entity.name));
  for (const cell of await page.getByTestId("entity-row").locator("td:nth-child(2)").all()) {
    await expect(cell).toHaveText("Place");
  }

  // Nothing matches: said so, with a way back.
  await search.getByLabel("Name contains").fill("Caroline");
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("heading", { name: "No entity matches" })).toBeVisible();
  await page.getByRole("link", { name: "Clear", exact: true }).click();
  await expect.poll(() => tableNames(page)).toEqual(listed.slice(0, 25).map((entity) => entity.name));

  // An entity's page: its figures are GET /entities/{id}'s.
  const caroline = await api<EntityDetail>(request, `/entities/${byName(listed, "Caroline").id}`);
  await page.getByRole("link", { name: "Caroline", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Caroline", level: 1 })).toBeVisible();
  await expect(page.getByTestId("entity-memory-count")).toHaveText(String(caroline.memory_count));
  const memories = page.getByTestId("entity-memory");
  await expect(memories).toHaveCount(caroline.memory_count);
  await expect(memories.filter({ hasText: "Caroline adopted a dog named Max" })).toHaveCount(1);
  await expect(memories.filter({ hasText: "Melanie works at Google" })).toHaveCount(0);
  const chat = memories.filter({ hasText: "Caroline is flying to Paris" });
  await expect(chat.getByRole("link", { name: "View conversation" })).toHaveAttribute(
    "href",
    `/${slug}/namespaces/${namespaceId}/memories?session=paris-chat-${run}`,
  );
  await expect(memories.first().getByRole("link").first()).toHaveAttribute(
    "href",
    new RegExp(`/${slug}/namespaces/${namespaceId}/memories/mem_`),
  );

  // The text alternative: the same neighbours and counts as the API, most shared first, each a link.
  const neighbours = page.getByTestId("entity-neighbours").getByRole("row");
  await expect(neighbours).toHaveCount(caroline.co_occurring.length + 1);
  expect(caroline.co_occurring.map((n) => n.entity.name)).toEqual(expect.arrayContaining(["Melanie", "Paris"]));
  for (const [i, neighbour] of caroline.co_occurring.entries()) {
    const cells = neighbours.nth(i + 1).getByRole("cell");
    await expect(cells.nth(0).getByRole("link")).toHaveText(neighbour.entity.name);
    await expect(cells.nth(2)).toHaveText(String(neighbour.shared_memories));
  }
  // The graph: the entity and each neighbour a node, each neighbour joined to it by an edge labelled with the count.
  const graph = page.getByTestId("entity-graph");
  await expect(graph.locator(".react-flow__node")).toHaveCount(caroline.co_occurring.length + 1);
  await expect(graph.locator(".react-flow__edge")).toHaveCount(caroline.co_occurring.length);
  const melanie = caroline.co_occurring.find((n) => n.entity.name === "Melanie")!;
  await expect(graph.locator(".react-flow__edge", { hasText: String(melanie.shared_memories) }).first()).toBeVisible();
  await screenshots(page, "entity");
  // At phone width the graph gives way to the table.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(graph).toBeHidden();
  await expect(page.getByTestId("entity-neighbours")).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });

  // A click on a node opens that entity.
  const paris = caroline.co_occurring.find((n) => n.entity.name === "Paris")!;
  await graph.locator(".react-flow__node", { hasText: "Paris" }).click();
  await expect(page).toHaveURL(new RegExp(`/entities/${paris.entity.id}$`));
  await expect(page.getByRole("heading", { name: "Paris", level: 1 })).toBeVisible();
  await expect(graph.locator(".react-flow__node", { hasText: "Caroline" })).toBeVisible();
  // And the table's link, the keyboard's way, back to Caroline.
  await page.getByTestId("entity-neighbours").getByRole("link", { name: "Caroline" }).click();
  await expect(page.getByRole("heading", { name: "Caroline", level: 1 })).toBeVisible();

  // The identity's page: its top entities, as GET /identities/{id}/entities, each opening the entity's page.
  const profile = await api<{ entities: EntityJson[] }>(request, `/identities/${identity}/entities`);
  expect(profile.entities.map((entity) => entity.name)).toEqual(expect.arrayContaining(["Caroline", "Google"]));
  await page.goto(`/${slug}/identities/${identity}`);
  const about = page.getByTestId("identity-entities");
  await expect(about.getByRole("link")).toHaveText(profile.entities.map((entity) => entity.name));
  await expect(about.getByRole("listitem").filter({ hasText: "Melanie" })).toContainText(
    `${byName(profile.entities, "Melanie").memory_count} memories`,
  );
  // Boston is named only in a memory of no identity.
  await expect(about.getByRole("link", { name: "Boston" })).toHaveCount(0);
  await screenshots(page, "identity");
  await about.getByRole("link", { name: "Google" }).click();
  await expect(page.getByRole("heading", { name: "Google", level: 1 })).toBeVisible();
});

test("a member sees the pages only once granted the namespace; another organization's entity is not found", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  expect(await signInOnce(page, ownerEmail)).toBe(slug);
  const listed = await api<EntityJson[]>(request, `/entities?namespace_id=${namespaceId}&page_size=100`);
  const caroline = byName(listed, "Caroline");
  const tab = `/${slug}/namespaces/${namespaceId}/entities`;
  const entityPage = `${tab}/${caroline.id}`;

  // Another organization's entity (the bootstrap organization's), under its namespace or under ours.
  const other = await request.post("/api/v1/namespaces", {
    headers: { authorization: `Bearer ${E2E_API_KEY}` },
    data: { name: `elsewhere-${run}` },
  });
  expect(other.status()).toBe(201);
  const otherNamespace = (await other.json()).data.id as string;
  await remember(request, { namespace_id: otherNamespace, content: `Zebulon met Oriana in Madrid.` }, E2E_API_KEY);
  const theirs = await api<EntityJson[]>(request, `/entities?namespace_id=${otherNamespace}`, E2E_API_KEY);
  const zebulon = byName(theirs, "Zebulon");
  for (const path of [
    `/${slug}/namespaces/${otherNamespace}/entities/${zebulon.id}`,
    `${tab}/${zebulon.id}`,
    `/${slug}/namespaces/${otherNamespace}/entities`,
    `${tab}/ent_unknown`,
  ]) {
    expect((await page.goto(path))!.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" }), path).toBeVisible();
    expect(await page.content(), path).not.toContain("Zebulon");
  }

  // A member without a grant: not found, with nothing of the namespace's entities.
  const email = `ent-member-${run}@example.com`;
  await page.goto(`/${slug}/members`);
  await page.getByLabel("Email").fill(email);
  await page.locator("select[name=role]").selectOption("member");
  await page.getByRole("button", { name: "Send invitation" }).click();
  const member = await (await browser.newContext()).newPage();
  await member.goto(await nextLinkTo(email));
  await expect(member.getByTestId("signed-in-as")).toHaveText(email);
  for (const path of [tab, entityPage]) {
    expect((await member.goto(path))!.status(), path).toBe(404);
    await expect(member.getByRole("heading", { name: "Not found" }), path).toBeVisible();
    expect(await member.content(), path).not.toContain("Caroline");
  }

  // Granted the namespace (its permissions panel), the member reads both pages.
  await page.goto(`/${slug}/namespaces/${namespaceId}`);
  await page.getByRole("button", { name: "Add access" }).click();
  const grant = page.getByRole("dialog", { name: "Add access" });
  const select = grant.getByLabel("API key or member");
  await select.selectOption((await select.locator("option", { hasText: email }).getAttribute("value"))!);
  await grant.getByRole("button", { name: "Grant access" }).click();
  await expect(grant).toBeHidden();
  await member.goto(tab);
  await expect(member.getByRole("link", { name: "Caroline", exact: true })).toBeVisible();
  await member.goto(entityPage);
  await expect(member.getByRole("heading", { name: "Caroline", level: 1 })).toBeVisible();
  await expect(member.getByTestId("entity-memory-count")).toHaveText(String(caroline.memory_count));
  await member.context().close();
});
