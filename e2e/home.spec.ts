import { expect, test } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config";

test("the home page shows where the API is and links to its OpenAPI document", async ({ page, baseURL }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Memory for your AI applications");
  await expect(page.getByText(`${baseURL}/api/v1`, { exact: true })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/home.png", fullPage: true });

  await page.getByRole("link", { name: "OpenAPI document" }).click();
  await expect(page).toHaveURL(/\/api\/v1\/openapi\.json$/);
  const doc = JSON.parse((await page.locator("body").innerText()).trim());
  expect(doc.openapi).toBe("3.1.0");
});

test("the home page fits a phone screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/screenshots/home-phone.png", fullPage: true });
});

test("a namespace created with the API from the browser's origin is listed", async ({ request }) => {
  const headers = { authorization: `Bearer ${E2E_API_KEY}` };
  const created = await request.post("/api/v1/namespaces", { headers, data: { name: "from-e2e" } });
  expect(created.status()).toBe(201);
  const listed = await (await request.get("/api/v1/namespaces", { headers })).json();
  expect(listed.data.map((ns: { name: string }) => ns.name)).toContain("from-e2e");
});
