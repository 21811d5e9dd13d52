// The integrations page, end to end with GitHub on loopback (e2e/github-provider.ts): Connect in the console →
// the provider's consent page → back in the console with the connection active once its first sync ran →
// the synced documents in the namespace's memory explorer → Disconnect takes their memories with it.
import { expect, test, type Page } from "@playwright/test";
import { alertOn, openPage, screenshots, signUp, unique } from "./console";
import { githubSeed } from "./github-provider";

const SHOTS = "test-results/screenshots";
// The first sync embeds every document: generous on a busy two-core machine.
const SYNC_TIMEOUT = 150_000;

test.describe.configure({ mode: "serial" });

/**
 * A new owner in an organization of their own: what these tests create (namespaces, connections) stays out of
 * the bootstrap organization, whose empty states other specs look at.
 */
async function signUpOwner(page: Page): Promise<string> {
  const id = unique();
  await signUp(page, `integrations-${id}@example.com`, `Integrations ${id}`);
  return new URL(page.url()).pathname.split("/")[1];
}

/** Creates a namespace in the console; returns its name and id. */
async function createNamespace(page: Page, slug: string) {
  const name = `handbook-${unique()}`;
  await page.goto(`/${slug}/namespaces`);
  await page.getByRole("button", { name: "New namespace" }).click();
  const dialog = page.getByRole("dialog", { name: "New namespace" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create namespace" }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  const id = (await page.getByTestId("namespace-id").textContent())!.trim();
  return { name, id };
}

/** Opens the connect dialog of GitHub and goes on to its consent page. */
async function startGithubConnection(page: Page, namespace: string, repositories: string[]) {
  await openPage(page, "Integrations");
  await page.getByTestId("provider-github").getByRole("button", { name: "Connect GitHub" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect GitHub" });
  await dialog.getByLabel("Namespace").selectOption({ label: namespace });
  await dialog.getByLabel("Repositories").fill(repositories.join("\n"));
  await dialog.getByRole("button", { name: "Continue to GitHub" }).click();
  await expect(page.getByRole("heading", { name: "Authorize Memory Gateway" })).toBeVisible();
}

test("connect GitHub: consent, first sync, documents in the explorer; disconnect deletes them", async ({ page }) => {
  test.setTimeout(SYNC_TIMEOUT + 90_000);
  const seed = githubSeed();
  const repositories = seed.connectOptions.repositories ?? [];
  expect(repositories.length).toBeGreaterThan(0);
  const slug = await signUpOwner(page);
  const namespace = await createNamespace(page, slug);
  // Nothing feeds it yet: its overview says so and links to the integrations page.
  await expect(page.getByText("None yet.")).toBeVisible();

  await startGithubConnection(page, namespace.name, repositories);
  await page.getByRole("button", { name: "Authorize" }).click();
  await page.waitForURL((url) => url.pathname === `/${slug}/integrations` && url.searchParams.has("connected"));
  await expect(page.getByRole("main").getByRole("status").first()).toContainText(
    `GitHub is connected to ${namespace.name}.`,
  );

  // The page reads itself again every few seconds until the first sync is done.
  const row = page.getByTestId("connection-row").filter({ hasText: namespace.name });
  await expect(row.getByTestId("connection-documents")).toHaveText(String(seed.documents.length), {
    timeout: SYNC_TIMEOUT,
  });
  await expect(row.getByTestId("connection-status")).toHaveText("active");
  await expect(row).not.toContainText("never");
  await expect(row.getByRole("button", { name: /^Sync .* now$/ })).toBeEnabled();
  await screenshots(page, "integrations");

  // The namespace's overview lists the connection.
  await row.getByRole("link", { name: namespace.name }).click();
  await expect(page.getByRole("heading", { name: namespace.name, level: 1 })).toBeVisible();
  const listed = page.getByTestId("namespace-connection-row");
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText("GitHub");
  await expect(listed).toContainText(String(seed.documents.length));

  // Every document is one memory, with its title and where it lives.
  await page.goto(`/${slug}/namespaces/${namespace.id}/memories`);
  for (const document of seed.documents) {
    const memory = page.getByTestId("memory-row").filter({ hasText: `source_url: ${document.url}` });
    await expect(memory).toHaveCount(1);
    await expect(memory).toContainText(`title: ${document.title}`);
    await expect(memory).toContainText("source: github");
  }
  await screenshots(page, "integrations-explorer");

  // Disconnect: the dialog says how many memories go; they are gone after it.
  await page.goto(`/${slug}/integrations`);
  await page.getByRole("button", { name: `Disconnect GitHub from ${namespace.name}` }).click();
  const confirm = page.getByRole("dialog", { name: "Disconnect GitHub?" });
  const memories = `${seed.documents.length} memories`;
  await expect(confirm).toContainText(`Its ${memories} will be deleted from ${namespace.name}.`);
  await page.screenshot({ path: `${SHOTS}/integrations-disconnect-1280.png` });
  await confirm.getByRole("button", { name: "Disconnect" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("main").getByRole("status").first()).toContainText(
    `GitHub is disconnected; ${memories} deleted.`,
  );
  await expect(page.getByTestId("connection-row").filter({ hasText: namespace.name })).toHaveCount(0);
  await page.goto(`/${slug}/namespaces/${namespace.id}/memories`);
  await expect(page.getByRole("heading", { name: "Memories", level: 1 })).toBeVisible();
  await expect(page.getByTestId("memory-row")).toHaveCount(0);
});

test("declining on the consent page comes back with the reason; nothing is synced", async ({ page }) => {
  const seed = githubSeed();
  const slug = await signUpOwner(page);
  const namespace = await createNamespace(page, slug);
  await startGithubConnection(page, namespace.name, seed.connectOptions.repositories ?? []);
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.waitForURL((url) => url.pathname === `/${slug}/integrations` && url.searchParams.has("error"));
  await expect(alertOn(page)).toContainText("The connection could not be completed:");
  const row = page.getByTestId("connection-row").filter({ hasText: namespace.name });
  await expect(row.getByTestId("connection-status")).not.toHaveText(/active|syncing/);
  await expect(row.getByTestId("connection-documents")).toHaveText("0");
  await expect(row).toContainText("did not authorize the connection");
  await screenshots(page, "integrations-declined");
});
