// The API reference at /docs: the OpenAPI document rendered in the browser by the vendored Scalar bundle, with
// nothing fetched from anywhere but this server (no fonts, telemetry or proxy from scalar.com), open to anyone,
// and linked from every console page.
import { expect, test } from "@playwright/test";
import { signInOnce } from "./console";

const SHOTS = process.env.E2E_SHOTS_DIR;

test("/docs renders every endpoint of the OpenAPI document and fetches nothing from another host", async ({
  page,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  // A request the page's Content-Security-Policy blocks never reaches page.on("request"): count those too.
  await page.addInitScript(() => {
    const blocked: string[] = [];
    (window as unknown as { blockedByPolicy: string[] }).blockedByPolicy = blocked;
    document.addEventListener("securitypolicyviolation", (event) => blocked.push(event.blockedURI));
  });

  // Signed out: the reference is public, as the document it renders is (GET /api/v1/openapi.json needs no key).
  const response = await page.goto("/docs");
  expect(response!.status()).toBe(200);
  expect(response!.headers()["content-security-policy"]).toContain("connect-src 'self'");
  await expect(page).toHaveTitle("API reference · Memory Gateway");
  await expect(page.getByRole("heading", { name: "Memory Gateway API", level: 1 })).toBeVisible({ timeout: 30_000 });
  // The groups in the document's order, Memory first and open, and no group of the 405s of other methods.
  const sidebar = page.getByRole("complementary", { name: "Sidebar for Memory Gateway API" });
  await expect(sidebar.getByRole("button", { name: "Close Group - Memory" })).toBeVisible();
  const groups = (await sidebar.getByRole("button", { name: /^(Open|Close) Group - / }).allInnerTexts()).map((group) =>
    group.replace(/^(Open|Close) Group - /, "").trim(),
  );
  expect(groups.slice(0, 3)).toEqual(["Memory", "Namespaces", "Grants"]);
  expect(groups).not.toContain("Not allowed");
  await expect(sidebar.getByText("Not allowed")).toHaveCount(0);
  // An endpoint by its short title; its sentence, from the handlers' schemas, on the page.
  await sidebar.getByRole("link", { name: /^Remember/ }).click();
  await expect(page.getByRole("heading", { name: /^Remember/ }).first()).toBeVisible();
  await expect(page.getByText(/^Store a memory/).first()).toBeVisible();
  await expect(page.getByText("/remember", { exact: true }).first()).toBeVisible();

  if (SHOTS) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: `${SHOTS}/api-reference-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/api-reference-390.png` });
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  await page.waitForLoadState("networkidle");
  expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url))).toEqual([]);
  expect(requested).toContain(`${origin}/api/v1/openapi.json`);
  // "eval" is zod's probe, in the bundle, for whether it may compile validators (it falls back when it may not):
  // the policy allows no eval. Nothing else was refused, no address above all.
  const blocked = await page.evaluate(() => (window as unknown as { blockedByPolicy: string[] }).blockedByPolicy);
  expect(blocked.filter((uri) => uri !== "eval")).toEqual([]);
});

test("/docs serves its one script and nothing else by that path", async ({ request }) => {
  const page = await request.get("/docs");
  const script = /<script src="(\/docs\/[^"]+)"/.exec(await page.text())![1];
  const bundle = await request.get(script);
  expect(bundle.status()).toBe(200);
  expect(bundle.headers()["content-type"]).toBe("text/javascript; charset=utf-8");
  expect(bundle.headers()["cache-control"]).toContain("immutable");
  for (const other of ["/docs/standalone.js", "/docs/..%2Fpackage.json"]) {
    expect((await request.get(other)).status(), other).toBe(404);
  }
});

test("every console page links to the API reference", async ({ page }) => {
  await signInOnce(page, "e2e@example.com", "an e2e password");
  await page.getByRole("banner").getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { name: "Memory Gateway API", level: 1 })).toBeVisible({ timeout: 30_000 });
  // And back.
  await page.getByRole("banner").getByRole("link", { name: "Console" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
});
