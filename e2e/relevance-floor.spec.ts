// The explorer's search inherits recall's relevance floor and says why each match matched: after the only
// dog memory is forgotten, "dog" lists nothing; a search sharing words lists the words each match has.
import { expect, test } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config";
import { expectNoSidewaysScroll, signInOnce, unique } from "./console";

const headers = { authorization: `Bearer ${E2E_API_KEY}` };
const SHOTS = process.env.E2E_SHOTS_DIR;

test("explorer search: no match without evidence; each match says which words and how close in meaning", async ({
  page,
  request,
}) => {
  const created = await request.post("/api/v1/namespaces", { headers, data: { name: `floor-${unique()}` } });
  expect(created.status()).toBe(201);
  const namespaceId = (await created.json()).data.id;
  const remembered = await request.post("/api/v1/remember", {
    headers,
    data: {
      namespace_id: namespaceId,
      memories: [
        { content: "Our dog Biscuit needs a walk every morning before work." },
        { content: "I am allergic to peanuts and carry an epinephrine pen everywhere." },
        { content: "The bakery on Elm Street sells sourdough loaves on Saturdays." },
        { content: "Peanut butter cookies from the bakery are my weakness, allergy or not." },
      ],
    },
  });
  expect(remembered.status()).toBe(201);
  const dog = (await remembered.json()).data[0].id;
  const forgot = await request.post("/api/v1/forget", {
    headers,
    data: { namespace_id: namespaceId, memory_ids: [dog] },
  });
  expect(forgot.status()).toBe(200);

  const orgSlug = await signInOnce(page, "e2e@example.com", "an e2e password");
  const explorer = `/${orgSlug}/namespaces/${namespaceId}/memories`;
  await page.goto(`${explorer}?q=dog`);
  await expect(page.getByText("No memory matches “dog”")).toBeVisible();
  await expect(page.getByTestId("match-row")).toHaveCount(0);

  await page.goto(`${explorer}?q=${encodeURIComponent("peanut allergy at the bakery")}`);
  const rows = page.getByTestId("match-row");
  await expect(rows.first()).toContainText("Peanut butter cookies");
  await expect(page.getByTestId("match-reasons").first()).toHaveText(
    /^matched: peanut, allergy, bakery( · meaning 0\.\d\d)?$/,
  );
  for (const score of await page.getByTestId("match-score").allTextContents()) expect(Number(score)).toBeGreaterThan(0);
  await expect(page.getByTestId("match-reasons")).toHaveCount(await rows.count());

  if (SHOTS) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: `${SHOTS}/explorer-search-reasons-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/explorer-search-reasons-390.png`, fullPage: true });
  }
});
