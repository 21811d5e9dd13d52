// A newcomer's first steps (issue 32): the overview's checklist leads to the namespace's try-it panel, which
// remembers, recalls (scores, times) and asks (an answer citing its sources) from the browser, beside a
// curl that does the same from a terminal; the MCP snippets lead with the URL alone (the client signs in);
// an invited member's checklist is theirs. With E2E_SHOTS_DIR set, each is photographed at 1280 and 390 px.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { expectNoSidewaysScroll, generateKey, openPage, signUp, unique } from "./console";
import { nextLinkTo } from "./mail";

const run = promisify(execFile);
const SHOTS = process.env.E2E_SHOTS_DIR;

/** The part of the page photographed at desktop and phone width (the page never scrolls sideways on the phone). */
async function shots(page: Page, part: Locator, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page, `${name} at ${width} px`);
    if (SHOTS) await part.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const orgSlugOf = (page: Page) => new URL(page.url()).pathname.split("/")[1];
const step = (page: Page, title: string) =>
  page.getByRole("region", { name: "Getting started" }).getByRole("listitem").filter({ hasText: title });

/** The code of a try-it section's curl, as the page shows it (and copies it). */
const curlOf = (page: Page, section: "remember" | "recall" | "ask") =>
  page.getByTestId(`try-it-${section}-curl`).locator("pre").innerText();

/** What bash hands curl for `command`, with curl replaced by a function that prints its arguments. */
async function curlArguments(command: string) {
  const shim = `curl() { node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- "$@"; }\n`;
  const { stdout } = await run("bash", ["-c", shim + command], { env: { ...process.env, MEMGW_API_KEY: "mgw_x" } });
  return JSON.parse(stdout) as string[];
}

test("the checklist leads to the try-it panel: remember, recall, ask, and the same with curl", async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, `tia-${unique()}@example.com`, `Tia Labs ${unique()}`);
  const slug = orgSlugOf(page);
  const remember = step(page, "Remember a first memory");
  await expect(remember).toContainText("POST /api/v1/remember");
  await expect(page.getByRole("main")).not.toContainText(/(^|[^i])\/v1\//);
  // No namespace yet: the step says what comes first.
  await expect(remember.getByRole("link", { name: "Create a namespace first" })).toHaveAttribute(
    "href",
    `/${slug}/namespaces?create=1`,
  );

  // The link opens the namespaces page with its dialog.
  await remember.getByRole("link", { name: "Create a namespace first" }).click();
  await expect(page.getByRole("dialog", { name: "New namespace" })).toBeVisible();
  await page.getByRole("dialog").getByLabel("Name").fill("support-bot");
  await page.getByRole("dialog").getByRole("button", { name: "Create namespace" }).click();
  await expect(page.getByRole("heading", { name: "support-bot", level: 1 })).toBeVisible();
  const namespaceId = (await page.getByTestId("namespace-id").innerText()).trim();

  await openPage(page, "Overview");
  await expect(remember.getByRole("link", { name: "See how" })).toHaveAttribute(
    "href",
    `/${slug}/namespaces/${namespaceId}#try-it`,
  );
  await shots(page, page.getByRole("region", { name: "Getting started" }), "checklist-owner");
  await remember.getByRole("link", { name: "See how" }).click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${namespaceId}#try-it$`));
  const panel = page.locator("#try-it");
  await expect(panel.getByRole("heading", { name: "Try it" })).toBeInViewport();

  // Remember: a text with quotes (the curl must survive them) and an identity.
  const content = `Dana's favourite café is "Blue Door"; she orders a flat white with oat milk.`;
  await panel.getByLabel("Text to remember").fill(content);
  await panel.getByLabel("Identity id (optional)").fill("dana");
  const rememberBody = { namespace_id: namespaceId, content, identity_id: "dana" };
  const rememberCurl = await curlOf(page, "remember");
  expect(rememberCurl).toContain(`${new URL(page.url()).origin}/api/v1/remember`);
  expect(rememberCurl).toContain('"Authorization: Bearer $MEMGW_API_KEY"');
  // What the shell hands curl is exactly the JSON the panel sends.
  const args = await curlArguments(rememberCurl);
  expect(JSON.parse(args[args.indexOf("--data-raw") + 1])).toEqual(rememberBody);
  await panel.getByRole("button", { name: "Remember", exact: true }).click();
  const remembered = panel.getByRole("status").filter({ hasText: "Remembered" });
  await expect(remembered).toContainText(/Remembered mem_\S+ in \d[\d,]* ms\./);
  const memoryId = (await remembered.getByRole("link").innerText()).trim();

  // Recall: the memory first, with its score and the time.
  await panel.getByLabel("Query").fill("Where does Dana order her flat white?");
  await panel.getByRole("button", { name: "Recall", exact: true }).click();
  const recall = page.getByTestId("try-it-recall-result");
  await expect(recall).toContainText(/\d+ match(es)? in \d[\d,]* ms\./);
  const firstMatch = recall.getByRole("listitem").first();
  await expect(firstMatch).toContainText(content);
  await expect(firstMatch).toContainText(memoryId);
  await expect(firstMatch).toContainText(/score [01]\.\d{3}/);

  // Ask: an answer, citing the memory.
  await panel.getByLabel("Question").fill("Which café does Dana like?");
  await panel.getByRole("button", { name: "Ask", exact: true }).click();
  const ask = page.getByTestId("try-it-ask-result");
  await expect(ask).toContainText(/Answered by .+ in \d[\d,]* ms, citing \d+ sources?:/);
  await expect(ask).toContainText("Blue Door");
  await expect(ask.getByRole("listitem").first()).toContainText(`[1]`);
  await expect(ask.getByRole("listitem").first()).toContainText(memoryId);
  // The panel with its results passes axe too (the accessibility spec checks the page as first opened).
  await expectAccessible(page, "namespace: try-it after a recall and an ask");
  await shots(page, panel, "try-it");

  // The recall curl, run for real with a key of this organization: the same memory comes back.
  const key = await generateKey(page, "terminal");
  await page.goto(`/${slug}/namespaces/${namespaceId}`);
  await panel.getByLabel("Query").fill("Where does Dana order her flat white?");
  const { stdout } = await run("bash", ["-c", await curlOf(page, "recall")], {
    env: { ...process.env, MEMGW_API_KEY: key },
  });
  const matches = JSON.parse(stdout).data as { memory_id: string; content: string; score: number }[];
  expect(matches[0]).toMatchObject({ memory_id: memoryId, content });
  expect(matches[0].score).toBeGreaterThan(0);

  // The MCP snippets: the URL alone first (the client signs in), the key second.
  const mcp = page.locator("#connect-mcp");
  const endpoint = `${new URL(page.url()).origin}/api/v1/mcp/${namespaceId}`;
  await expect(page.getByTestId("mcp-endpoint")).toHaveText(endpoint);
  await mcp.getByRole("tab", { name: "Cursor" }).click();
  const signIn = mcp.getByRole("tabpanel").getByTestId("mcp-sign-in");
  expect(JSON.parse(await signIn.locator("pre").innerText())).toEqual({ mcpServers: { memory: { url: endpoint } } });
  await expect(mcp.getByRole("tabpanel").getByTestId("mcp-with-key")).toContainText("Authorization");
  await mcp.getByRole("tab", { name: "VS Code" }).click();
  expect(JSON.parse(await signIn.locator("pre").innerText())).toEqual({
    servers: { memory: { type: "http", url: endpoint } },
  });
  await mcp.getByRole("tab", { name: "Claude Desktop" }).click();
  await expect(signIn).toContainText("Add custom connector");
  await expect(signIn.locator("pre")).toHaveText(endpoint);
  await expect(mcp.getByRole("tabpanel")).toContainText("must be reachable from the internet over HTTPS");
  await mcp.getByRole("tab", { name: "ChatGPT" }).click();
  await expect(signIn).toContainText("developer mode");
  await mcp.getByRole("tab", { name: "Claude Code" }).click();
  await expect(signIn.locator("pre")).toHaveText(`claude mcp add --transport http memory ${endpoint}`);
  // The first tab (Claude Code): sign-in above the key form.
  const [signInTop, keyTop] = await Promise.all([
    signIn.boundingBox(),
    mcp.getByRole("tabpanel").getByTestId("mcp-with-key").boundingBox(),
  ]);
  expect(signInTop!.y).toBeLessThan(keyTop!.y);
  await shots(page, mcp, "mcp-snippets");
});

test("an invited member's checklist: their own key, a namespace granted to them, the try-it panel", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signUp(page, `omar-${unique()}@example.com`, `Omar Labs ${unique()}`);
  const slug = orgSlugOf(page);
  await generateKey(page, "owner's key");
  await openPage(page, "Namespaces");
  await page.getByRole("button", { name: "New namespace" }).click();
  await page.getByRole("dialog").getByLabel("Name").fill("team-notes");
  await page.getByRole("dialog").getByRole("button", { name: "Create namespace" }).click();
  await expect(page.getByRole("heading", { name: "team-notes", level: 1 })).toBeVisible();
  const namespacePage = new URL(page.url()).pathname;

  await openPage(page, "Members");
  const memberEmail = `mia-${unique()}@example.com`;
  await page.getByLabel("Email").fill(memberEmail);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(memberEmail);
  const member = await (await browser.newContext()).newPage();
  await member.goto(await nextLinkTo(memberEmail));
  await expect(member.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

  // The owner's key is not the member's; members do not create namespaces: they ask for one.
  await expect(member.getByRole("region", { name: "Getting started" })).toContainText("0 of 4 steps done.");
  await expect(step(member, "Create an API key")).toContainText("Create a key");
  await expect(step(member, "Create a namespace")).toHaveCount(0);
  await expect(step(member, "Get access to a namespace")).toContainText("ask one of them for access");
  await expect(step(member, "Remember a first memory")).toContainText("Needs a namespace first");
  await expect(step(member, "Remember a first memory").getByRole("link")).toHaveCount(0);
  await shots(member, member.getByRole("region", { name: "Getting started" }), "checklist-member");

  // Granted the namespace, the member's next step is its try-it panel, where they may remember.
  await page.goto(namespacePage);
  await page.getByRole("button", { name: "Add access" }).click();
  const dialog = page.getByRole("dialog", { name: "Add access" });
  const select = dialog.getByLabel("API key or member");
  await select.selectOption((await select.locator("option", { hasText: memberEmail }).getAttribute("value"))!);
  await dialog.getByRole("button", { name: "Grant access" }).click();
  await expect(dialog).toBeHidden();
  await member.reload();
  await expect(step(member, "Get access to a namespace")).toContainText("Done");
  await expect(member.getByRole("region", { name: "Getting started" })).toContainText("1 of 4 steps done.");
  await step(member, "Remember a first memory").getByRole("link", { name: "See how" }).click();
  await expect(member).toHaveURL(new RegExp(`${namespacePage}#try-it$`));
  const panel = member.locator("#try-it");
  await expect(panel.getByRole("button", { name: "Remember", exact: true })).toBeEnabled();
  await panel.getByLabel("Text to remember").fill("Mia runs the Tuesday stand-up.");
  await panel.getByRole("button", { name: "Remember", exact: true }).click();
  await expect(panel.getByRole("status").filter({ hasText: "Remembered" })).toBeVisible();
  await member.goto(`/${slug}`);
  await expect(step(member, "Remember a first memory")).toContainText("Done");
});
