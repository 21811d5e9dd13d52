// The namespace pages: the list (empty state, search, create with the API's 409 inline, delete by typing
// the name) and a namespace's page, whose permissions panel grants keys and members access that applies
// to their very next request.
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config";
import { generateKey, screenshots, signInOnce, unique } from "./console";
import { nextLinkTo } from "./mail";

const OWNER = { email: "e2e@example.com", password: "an e2e password" };
const bootstrap = { authorization: `Bearer ${E2E_API_KEY}` };
const SHOTS = "test-results/screenshots";

test.describe.configure({ mode: "serial" });

/** Signs in as the bootstrap organization's owner (once per run) and returns the organization's slug. */
const signInAsOwner = (page: Page) => signInOnce(page, OWNER.email, OWNER.password);

async function createNamespaceWithApi(request: APIRequestContext, name: string) {
  const response = await request.post("/api/v1/namespaces", { headers: bootstrap, data: { name } });
  expect(response.status()).toBe(201);
  return (await response.json()).data as { id: string; name: string };
}

/** Invites `email` as a member; the invitee signs in from the mailed link in a browser of their own. */
async function inviteMember(page: Page, browser: Browser, slug: string, email: string) {
  await page.goto(`/${slug}/members`);
  await page.getByLabel("Email").fill(email);
  await page.locator("select[name=role]").selectOption("member");
  await page.getByRole("button", { name: "Send invitation" }).click();
  const them = await (await browser.newContext()).newPage();
  await them.goto(await nextLinkTo(email));
  await expect(them.getByTestId("signed-in-as")).toHaveText(email);
  return them;
}

/** Picks a grantee in the panel's "Add access" dialog by the text of its option. */
async function grantInPanel(page: Page, optionText: string) {
  await page.getByRole("button", { name: "Add access" }).click();
  const dialog = page.getByRole("dialog", { name: "Add access" });
  const select = dialog.getByLabel("API key or member");
  const value = await select.locator("option", { hasText: optionText }).getAttribute("value");
  await select.selectOption(value!);
  await dialog.getByRole("button", { name: "Grant access" }).click();
  await expect(dialog).toBeHidden();
}

async function removeInPanel(page: Page, rowText: string) {
  await page
    .getByTestId("grant-row")
    .filter({ hasText: rowText })
    .getByRole("button", { name: /^Remove / })
    .click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove access" }).click();
  await expect(page.getByTestId("grant-row").filter({ hasText: rowText })).toHaveCount(0);
}

test("no namespace yet: the list explains what one is and offers to create it", async ({ page, request }) => {
  // The specs before this one leave namespaces in the bootstrap organization (sign-ups are rate limited
  // per address, so no new organization here): they go first, through the API.
  const listed = await request.get("/api/v1/namespaces?page_size=100", { headers: bootstrap });
  for (const { id } of (await listed.json()).data as { id: string }[]) {
    expect((await request.delete(`/api/v1/namespaces/${id}`, { headers: bootstrap })).status()).toBe(200);
  }
  const slug = await signInAsOwner(page);
  await page.goto(`/${slug}/namespaces`);
  await expect(page.getByRole("heading", { name: "No namespaces yet" })).toBeVisible();
  await expect(page.getByText("A namespace is a separate memory space")).toBeVisible();
  await expect(page.getByRole("button", { name: "New namespace" })).toBeVisible();
  await screenshots(page, "namespaces-empty");
});

test("a key made first reaches a namespace created with it ticked; one left out gets a 404 that says why", async ({
  page,
  request,
}) => {
  const slug = await signInAsOwner(page);
  await page.goto(`/${slug}/keys`);
  const keyName = `made-first-${unique()}`;
  const secret = await generateKey(page, keyName);
  const otherName = `left-out-${unique()}`;
  const other = await generateKey(page, otherName);

  await page.goto(`/${slug}/namespaces?create=1`);
  const dialog = page.getByRole("dialog", { name: "New namespace" });
  const name = `granted-${unique()}`;
  await dialog.getByLabel("Name").fill(name);
  const keys = dialog.getByRole("group", { name: "API keys that may use it" });
  await expect(keys).toContainText("A key reaches only the namespaces granted to it");
  await keys.getByRole("checkbox", { name: new RegExp(keyName) }).click();
  await screenshots(page, "namespaces-create-with-keys");
  await dialog.getByRole("button", { name: "Create namespace" }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  const id = (await page.getByTestId("namespace-id").textContent())!.trim();
  await expect(page.getByTestId("grant-row").filter({ hasText: keyName })).toHaveCount(1);

  const recall = (key: string) =>
    request.post("/api/v1/recall", {
      headers: { authorization: `Bearer ${key}` },
      data: { namespace_id: id, query: "x" },
    });
  expect((await recall(secret)).status()).toBe(200);
  const refused = await recall(other);
  expect(refused.status()).toBe(404);
  expect((await refused.json()).error.message).toContain("an owner or admin grants a namespace from its page");

  // The keys page says why the key was refused, and grants it from there.
  await page.goto(`/${slug}/keys`);
  const row = page.getByTestId("key-row").filter({ hasText: otherName });
  await expect(row.getByTestId("key-refusals")).toContainText(`Refused 1 time on ${name}: not granted`);
  await expect(page.getByTestId("key-row").filter({ hasText: keyName }).getByTestId("key-refusals")).toHaveCount(0);
  await screenshots(page, "keys-refused-for-want-of-a-grant");
  await row.getByRole("button", { name: "Grant access" }).click();
  const edit = page.getByRole("dialog", { name: `Edit “${otherName}”` });
  await edit.getByRole("checkbox", { name }).click();
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toHaveCount(0);
  expect((await recall(other)).status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("key-row").filter({ hasText: otherName }).getByTestId("key-refusals")).toHaveCount(0);
});

test("create (a duplicate name is the API's 409, inline), search, delete by typing the name", async ({
  page,
  request,
}) => {
  const slug = await signInAsOwner(page);
  await page.goto(`/${slug}/namespaces`);
  await page.getByRole("button", { name: "New namespace" }).click();
  let dialog = page.getByRole("dialog", { name: "New namespace" });
  await dialog.getByLabel("Name").fill("support-bot");
  await dialog.getByLabel("Description").fill("Memories of the support assistant");
  await dialog.getByLabel("External reference id").fill("crm-42");
  await dialog.getByRole("button", { name: "Create namespace" }).click();
  await expect(page.getByRole("heading", { name: "support-bot", level: 1 })).toBeVisible();
  await expect(page.getByTestId("namespace-external_reference_id")).toHaveText("crm-42");

  await page.goto(`/${slug}/namespaces`);
  await page.getByRole("button", { name: "New namespace" }).click();
  dialog = page.getByRole("dialog", { name: "New namespace" });
  await dialog.getByLabel("Name").fill("support-bot");
  await dialog.getByRole("button", { name: "Create namespace" }).click();
  const conflict = 'A namespace named "support-bot" already exists in this organization.';
  await expect(dialog.getByRole("alert")).toHaveText(conflict);
  await expect(dialog.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await page.screenshot({ path: `${SHOTS}/namespaces-create-conflict-1280.png` });
  await dialog.getByRole("button", { name: "Cancel" }).click();

  const scratch = await createNamespaceWithApi(request, `Scratch-${unique()}`);
  await page.goto(`/${slug}/namespaces`);
  await page.getByRole("searchbox", { name: "Search by name" }).fill("scratch");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("namespace-row")).toHaveText([new RegExp(scratch.name)]);

  await page.getByRole("button", { name: `Delete ${scratch.name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Delete “${scratch.name}”?` });
  await expect(confirm).toContainText("Its 0 memories will be deleted with it");
  const deleteButton = confirm.getByRole("button", { name: "Delete namespace" });
  await expect(deleteButton).toBeDisabled();
  await confirm.getByLabel(`Type ${scratch.name} to confirm`).fill("scratch");
  await expect(deleteButton).toBeDisabled();
  await confirm.getByLabel(`Type ${scratch.name} to confirm`).fill(scratch.name);
  await deleteButton.click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText(`No namespace matches “scratch”`)).toBeVisible();
  expect((await request.get(`/api/v1/namespaces/${scratch.id}`, { headers: bootstrap })).status()).toBe(404);
});

test("a key granted in the panel reads the namespace at once; removed, it is 404 at once", async ({
  page,
  request,
}) => {
  const slug = await signInAsOwner(page);
  const namespace = await createNamespaceWithApi(request, `panel-${unique()}`);
  const keyName = `panel reader ${unique()}`;
  await page.goto(`/${slug}/keys`);
  const secret = await generateKey(page, keyName);
  const read = async () =>
    (
      await request.get(`/api/v1/namespaces/${namespace.id}`, { headers: { authorization: `Bearer ${secret}` } })
    ).status();
  expect(await read()).toBe(404);

  await page.goto(`/${slug}/namespaces/${namespace.id}`);
  await grantInPanel(page, keyName);
  await expect(page.getByRole("main").getByRole("status").filter({ hasText: "now has access" })).toBeVisible();
  expect(await read()).toBe(200);
  const row = page.getByTestId("grant-row").filter({ hasText: keyName });
  await expect(row).toContainText("API key");
  await expect(row.getByTestId("grant-can")).toContainText("read");

  await expect(page.getByTestId("mcp-endpoint")).toHaveText(new RegExp(`/api/v1/mcp/${namespace.id}$`));
  await page.getByRole("tab", { name: "Cursor" }).click();
  await expect(page.getByRole("tabpanel")).toContainText(`/api/v1/mcp/${namespace.id}`);
  await page.getByRole("tab", { name: "Claude Code" }).click();
  await screenshots(page, "namespace-page");

  await removeInPanel(page, keyName);
  expect(await read()).toBe(404);
});

test("a member sees a namespace only while granted: 404 page before, its page and memories, 404 again", async ({
  page,
  request,
  browser,
}) => {
  const slug = await signInAsOwner(page);
  const namespace = await createNamespaceWithApi(request, `team-notes-${unique()}`);
  for (const content of ["Ana prefers email", "Ana's plan renews in March"]) {
    const remembered = await request.post("/api/v1/remember", {
      headers: bootstrap,
      data: { namespace_id: namespace.id, content, identity_id: "ana" },
    });
    expect(remembered.status()).toBe(201);
  }
  const email = `nina-${unique()}@example.com`;
  const member = await inviteMember(page, browser, slug, email);
  const namespacePage = `/${slug}/namespaces/${namespace.id}`;

  expect((await member.goto(namespacePage))!.status()).toBe(404);
  await expect(member.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(member.getByText(namespace.name)).toHaveCount(0);
  await member.goto(`/${slug}/namespaces`);
  await expect(member.getByText(namespace.name)).toHaveCount(0);

  await page.goto(namespacePage);
  await grantInPanel(page, email);
  await expect(page.getByTestId("grant-row").filter({ hasText: email })).toContainText("read, write");

  await member.goto(namespacePage);
  await expect(member.getByRole("heading", { name: namespace.name, level: 1 })).toBeVisible();
  await expect(member.getByTestId("memory-count")).toHaveText("2");
  await expect(member.getByTestId("identity-count")).toHaveText("1");
  await member.getByTestId("memory-count").click();
  await expect(member.getByRole("main")).toContainText("Ana prefers email");
  await member.goto(namespacePage);
  // Members see who has access, read-only.
  await expect(member.getByTestId("grant-row").filter({ hasText: email })).toBeVisible();
  await expect(member.getByRole("button", { name: "Add access" })).toHaveCount(0);
  await expect(member.getByRole("button", { name: /^Remove / })).toHaveCount(0);
  await expect(member.getByRole("button", { name: "Edit description" })).toHaveCount(0);
  await member.goto(`/${slug}/namespaces`);
  await expect(member.getByTestId("namespace-row")).toHaveText([new RegExp(namespace.name)]);
  await expect(member.getByRole("button", { name: "New namespace" })).toHaveCount(0);
  await screenshots(member, "namespaces-list-member");

  await page.goto(namespacePage);
  await removeInPanel(page, email);
  expect((await member.goto(namespacePage))!.status()).toBe(404);
  await expect(member.getByRole("heading", { name: "Not found" })).toBeVisible();
  expect((await member.goto(`${namespacePage}/memories`))!.status()).toBe(404);
  await expect(member.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(member.getByText("Ana prefers email")).toHaveCount(0);
});

test("an owner edits the external reference id and description in place; the list shows the counts", async ({
  page,
  request,
}) => {
  const slug = await signInAsOwner(page);
  const namespace = await createNamespaceWithApi(request, `editable-${unique()}`);
  await page.goto(`/${slug}/namespaces/${namespace.id}`);
  await page.getByRole("button", { name: "Edit external reference id" }).click();
  await page.getByLabel("External reference id").fill("crm-42");
  await page.getByRole("button", { name: "Save" }).click();
  // Taken by support-bot above: the API's 409, next to the field.
  await expect(page.getByRole("main").getByRole("alert")).toContainText('external_reference_id "crm-42" already');
  await page.getByLabel("External reference id").fill(`crm-${unique()}`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("namespace-external_reference_id")).toHaveText(/^crm-/);

  await page.getByRole("button", { name: "Edit description" }).click();
  await page.getByLabel("Description").fill("Edited in the console");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("namespace-description")).toHaveText("Edited in the console");
  const fetched = await (await request.get(`/api/v1/namespaces/${namespace.id}`, { headers: bootstrap })).json();
  expect(fetched.data.description).toBe("Edited in the console");

  await page.goto(`/${slug}/namespaces`);
  const teamNotes = page.getByTestId("namespace-row").filter({ hasText: "team-notes-" });
  await expect(teamNotes.locator("td").nth(2)).toHaveText("2");
  await screenshots(page, "namespaces-list");
});
