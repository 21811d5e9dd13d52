// The Documents tab in a real browser, on the production build: a PDF (three pages, each a heading and
// paragraphs, written with pdf-lib) chosen with the file input and a Markdown file dropped on the upload
// area are each uploaded, queued and read, and the list follows them to ready with their pages and passages; the
// PDF's page shows its text by page and heading, its passages and a download of the original; the namespace's
// try-it panel answers from it, citing the page ("[1, p. 2]"); deleted, it is gone. A .zip is refused with the
// API's 415 and the types it reads; an upload from another site is refused; another id is a 404 page.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { pdfOf } from "../tests/helpers/pdf";
import { expectNoSidewaysScroll, openPage, signInOnce, signUp, unique } from "./console";

/** Where to photograph the pages at desktop and phone width; unset (CI), no photographs. */
const SHOTS = process.env.E2E_SHOTS_DIR;

const run = unique();
const email = `docs-${run}@example.com`;
let slug: string;
let namespaceId: string;

test.describe.configure({ mode: "serial" });

const HANDBOOK = [
  {
    heading: "Welcome to Northwind",
    paragraphs: [
      "This handbook describes how Northwind Traders works: our offices, the tools we use and the people to ask.",
      "Read it in your first week, and come back to it whenever a question comes up.",
    ],
  },
  {
    heading: "Parental leave",
    paragraphs: [
      "Every employee receives twenty weeks of fully paid parental leave, to be taken within a year of the birth.",
      "Tell your manager eight weeks before the leave starts, so the team can plan around it.",
    ],
  },
  {
    heading: "Expenses",
    paragraphs: ["Travel is booked through the Skyward portal and approved by the finance team within two days."],
  },
];

const OFFICE_GUIDE = [
  "# Office guide",
  "",
  "## Opening hours",
  "",
  "The Lisbon office opens at eight in the morning and closes at seven in the evening.",
  "",
  "## Meeting rooms",
  "",
  "Rooms are booked in the calendar; the large room on the third floor seats twenty people.",
  "",
].join("\n");

/** Drops files on `target` as a person dragging them from their desktop would (dragover, then drop). */
async function dropFiles(page: Page, target: Locator, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const dataTransfer = await page.evaluateHandle(
    (given) => {
      const transfer = new DataTransfer();
      for (const file of given) {
        const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: file.mimeType }));
      }
      return transfer;
    },
    files.map((file) => ({ name: file.name, mimeType: file.mimeType, base64: file.buffer.toString("base64") })),
  );
  await target.dispatchEvent("dragover", { dataTransfer });
  await target.dispatchEvent("drop", { dataTransfer });
}

/** Both widths of the page as it is now; at phone width the page never scrolls sideways. */
async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, name);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/documents-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/documents-${name}-1280.png`, fullPage: true });
}

const rowOf = (page: Page, text: string) => page.getByTestId("document-row").filter({ hasText: text });

test("upload a PDF and a dropped Markdown file, read them by page, ask with page citations, delete", async ({
  page,
}) => {
  // The first document also waits for the embedding model to load.
  test.setTimeout(300_000);
  await signUp(page, email, `Docs Co ${run}`);
  slug = new URL(page.url()).pathname.split("/")[1];

  await openPage(page, "Namespaces");
  await page.getByRole("button", { name: "New namespace" }).click();
  await page.getByRole("dialog").getByLabel("Name").fill(`handbooks-${run}`);
  await page.getByRole("dialog").getByRole("button", { name: "Create namespace" }).click();
  await expect(page.getByRole("heading", { name: `handbooks-${run}`, level: 1 })).toBeVisible();
  namespaceId = (await page.getByTestId("namespace-id").innerText()).trim();
  const base = `/${slug}/namespaces/${namespaceId}/documents`;

  await page.getByRole("navigation", { name: "Namespace" }).getByRole("link", { name: "Documents" }).click();
  await expect(page.getByRole("heading", { name: "Documents", level: 1 })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${base}$`));
  await expect(page.getByRole("heading", { name: "No documents yet" })).toBeVisible();

  // The PDF through the file input, the Markdown file dropped on the upload area: each is sent in turn.
  const pdfName = "northwind-employee-handbook-2025-final-version-for-all-staff-and-contractors.pdf";
  await expect(page.getByLabel("Or choose files")).toBeEnabled();
  await page.getByLabel("Or choose files").setInputFiles({
    name: pdfName,
    mimeType: "application/pdf",
    buffer: Buffer.from(await pdfOf(HANDBOOK, "Northwind handbook", 22)),
  });
  await dropFiles(page, page.getByTestId("document-drop-zone"), [
    { name: "office-guide.md", mimeType: "text/markdown", buffer: Buffer.from(OFFICE_GUIDE) },
  ]);
  const uploads = page.getByRole("list", { name: "Uploads" }).getByTestId("upload-item");
  await expect(uploads).toHaveCount(2);
  await expect(uploads.filter({ hasText: pdfName })).toHaveAttribute("data-state", "added");
  await expect(uploads.filter({ hasText: "office-guide.md" })).toHaveAttribute("data-state", "added");

  // The list follows both to ready without a reload (it reads them again while one is queued or processing).
  const pdfRow = rowOf(page, pdfName);
  const mdRow = rowOf(page, "office-guide.md");
  await expect(pdfRow.getByTestId("document-status")).toHaveAttribute("data-status", "ready", { timeout: 180_000 });
  await expect(mdRow.getByTestId("document-status")).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
  await expect(page.getByTestId("document-row")).toHaveCount(2);
  await expect(pdfRow.getByRole("link", { name: "Northwind handbook" })).toBeVisible();
  await expect(pdfRow).toContainText("PDF");
  await expect(pdfRow.getByTestId("document-pages")).toHaveText("3");
  const pdfPassages = Number(await pdfRow.getByTestId("document-passages").innerText());
  expect(pdfPassages).toBeGreaterThanOrEqual(3);
  await expect(mdRow).toContainText("Markdown");
  await expect(mdRow.getByTestId("document-pages")).toHaveText("—");
  expect(Number(await mdRow.getByTestId("document-passages").innerText())).toBeGreaterThanOrEqual(1);
  await screenshots(page, "list");

  // A file of a type it does not read: the API's 415, with the types it does.
  await expect(page.getByLabel("Or choose files")).toBeEnabled();
  await page.getByLabel("Or choose files").setInputFiles({
    name: "archive.zip",
    mimeType: "application/zip",
    buffer: Buffer.from("504b0304140000000800", "hex"),
  });
  const refused = uploads.filter({ hasText: "archive.zip" });
  await expect(refused).toHaveAttribute("data-state", "failed");
  await expect(refused.getByRole("alert")).toContainText("is not of a type we read. Supported: application/pdf");
  await expect(refused.getByRole("alert")).toContainText("text/markdown");
  await expect(page.getByTestId("document-row")).toHaveCount(2);

  // The PDF's page: its details, its text by page and heading, its passages, the original as a download.
  await pdfRow.getByRole("link", { name: "Northwind handbook" }).click();
  await expect(page.getByRole("heading", { name: "Northwind handbook", level: 1 })).toBeVisible();
  const details = page.getByTestId("document-details");
  await expect(details.getByTestId("document-status")).toHaveAttribute("data-status", "ready");
  await expect(details).toContainText("PDF");
  await expect(details).toContainText(pdfName);
  await expect(page.getByTestId("document-passage-count")).toHaveText(String(pdfPassages));
  await expect(page.getByTestId("document-text-page")).toHaveCount(3);
  const second = page.getByRole("region", { name: "Page 2" });
  await expect(second.getByRole("heading", { name: "Parental leave" })).toBeVisible();
  await expect(second).toContainText("Every employee receives twenty weeks of fully paid parental leave");
  await expect(page.getByRole("region", { name: "Page 3" })).toContainText("Skyward portal");
  await expect(page.getByTestId("document-passage")).toHaveCount(pdfPassages);
  await expect(page.getByTestId("document-passage").filter({ hasText: "twenty weeks" })).toContainText(
    "Page 2 · Parental leave",
  );
  const download = page.getByRole("link", { name: "Download original" });
  const original = await page.request.get((await download.getAttribute("href"))!);
  expect(original.status()).toBe(200);
  expect(original.headers()["content-type"]).toBe("application/pdf");
  expect(original.headers()["content-disposition"]).toMatch(/^attachment;/);
  expect(original.headers()["x-content-type-options"]).toBe("nosniff");
  expect((await original.body()).subarray(0, 5).toString()).toBe("%PDF-");
  // Uploaded, not fetched: nothing to refresh.
  await expect(page.getByRole("button", { name: "Refresh from URL" })).toHaveCount(0);
  await screenshots(page, "pdf");
  const documentUrl = page.url();

  // In the memory explorer, a passage links its document by a chip; what a passage lacks (the Markdown file has
  // no pages, neither has a source URL) is no chip of "null".
  await page.goto(`/${slug}/namespaces/${namespaceId}/memories`);
  const passage = page.getByTestId("memory-row").filter({ hasText: "twenty weeks" }).first();
  const documentChip = passage.getByRole("link", { name: /^document doc_/ });
  await expect(documentChip).toHaveAttribute("href", new URL(documentUrl).pathname);
  await expect(page.getByTestId("memory-row").first()).toBeVisible();
  await expect(page.getByText(/: null$/)).toHaveCount(0);
  await screenshots(page, "passages-in-explorer");

  // The try-it panel asks the namespace: the answer cites the handbook's page.
  await page.goto(`/${slug}/namespaces/${namespaceId}`);
  const panel = page.locator("#try-it");
  await panel.getByLabel("Question").fill("How many weeks of parental leave does an employee get?");
  await panel.getByRole("button", { name: "Ask", exact: true }).click();
  const ask = page.getByTestId("try-it-ask-result");
  await expect(ask).toContainText(/Answered by .+ in \d[\d,]* ms, citing \d+ sources?:/, { timeout: 60_000 });
  const answer = ask.locator("p").first();
  await expect(answer).toContainText(/twenty weeks/i);
  await expect(answer).toContainText("[1, p. 2]");

  // Deleted from its page, after a confirmation: back on the list, it is gone, the Markdown file stays.
  await page.goto(documentUrl);
  await page.getByRole("button", { name: "Delete document" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this document?" });
  await expect(confirm).toContainText("Northwind handbook");
  await confirm.getByRole("button", { name: "Delete document" }).click();
  await expect(page).toHaveURL(new RegExp(`${base}$`));
  await expect(page.getByTestId("document-row")).toHaveCount(1);
  await expect(rowOf(page, "office-guide.md")).toBeVisible();
  await expect(rowOf(page, pdfName)).toHaveCount(0);
  expect((await page.goto(documentUrl))?.status()).toBe(404);

  // A URL: refused in the form when the API refuses it; added, fetched, and failed with the reason when what it
  // answers is not a document (this server's health check is JSON). Its page offers to fetch it again.
  await page.goto(base);
  const urlForm = page.getByRole("form", { name: "Add a URL" });
  await urlForm.getByLabel("URL").fill("https://someone:secret@example.com/handbook.pdf");
  await urlForm.getByRole("button", { name: "Add URL" }).click();
  await expect(urlForm.getByRole("alert")).toHaveText("must not contain a user name or password");
  await expect(urlForm.getByLabel("URL")).toHaveAttribute("aria-invalid", "true");
  const healthUrl = new URL("/api/v1/health", page.url()).toString();
  await urlForm.getByLabel("URL").fill(healthUrl);
  await urlForm.getByRole("button", { name: "Add URL" }).click();
  await expect(urlForm.getByRole("status")).toContainText("Added");
  const urlRow = rowOf(page, healthUrl);
  await expect(urlRow.getByTestId("document-status")).toHaveAttribute("data-status", "failed", { timeout: 60_000 });
  await expect(urlRow.getByTestId("document-error")).toContainText("is not of a type we read");
  await urlRow.getByRole("link", { name: healthUrl }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("is not of a type we read");
  // What it answered was not kept: there is no original to download.
  await expect(page.getByRole("link", { name: "Download original" })).toHaveCount(0);
  const refresh = page.getByRole("button", { name: "Refresh from URL" });
  await refresh.click();
  await expect(refresh).toBeEnabled();
  await expect(page.getByTestId("document-details").getByTestId("document-status")).toHaveAttribute(
    "data-status",
    "failed",
    { timeout: 60_000 },
  );
  await expect(page.getByRole("main").getByRole("alert")).toHaveCount(1);

  // An upload from another site is refused before anything is read; an id no document has is a 404 page.
  const foreign = await page.request.post(`${base}/upload`, {
    headers: { origin: "https://attacker.example", "content-type": "application/octet-stream", "x-file-name": "a.md" },
    data: Buffer.from("# Hello"),
  });
  expect(foreign.status()).toBe(403);
  expect((await page.goto(`${base}/doc_unknown`))?.status()).toBe(404);
});

test("a long PDF is read ten pages at a time; a long file name wraps", async ({ page }) => {
  test.setTimeout(180_000);
  await signInOnce(page, email);
  const base = `/${slug}/namespaces/${namespaceId}/documents`;
  await page.goto(base);
  // Each page says something of its own: a line repeated on every page (digits aside) is a running footer.
  const regions = [
    "Lisbon",
    "Oslo",
    "Porto",
    "Madrid",
    "Lyon",
    "Turin",
    "Ghent",
    "Bern",
    "Graz",
    "Cork",
    "Riga",
    "Bonn",
  ];
  const chapters = regions.map((region, index) => ({
    heading: `Chapter ${index + 1}: ${region}`,
    paragraphs: [
      `The ${region} office had its best year: customers in ${region} renewed early and asked for more.`,
      `Next year ${region} hires two engineers and opens a showroom near the ${region} station.`,
    ],
  }));
  // One word of 130 letters: only wrapping anywhere keeps it on a phone's screen.
  const name = `annual-report-${"x".repeat(130)}.pdf`;
  await expect(page.getByLabel("Or choose files")).toBeEnabled();
  await page.getByLabel("Or choose files").setInputFiles({
    name,
    mimeType: "application/pdf",
    buffer: Buffer.from(await pdfOf(chapters, "Annual report", 22)),
  });
  const row = rowOf(page, name);
  await expect(row.getByTestId("document-status")).toHaveAttribute("data-status", "ready", { timeout: 120_000 });
  await expect(row.getByTestId("document-pages")).toHaveText("12");
  await screenshots(page, "list-long-name");

  await row.getByRole("link", { name: "Annual report" }).click();
  await expect(page.getByRole("heading", { name: "Annual report", level: 1 })).toBeVisible();
  await expect(page.getByTestId("document-text-page")).toHaveCount(10);
  const pager = page.getByRole("navigation", { name: "Pagination" });
  await expect(pager).toContainText("Pages 1–10 of 12");
  await expect(page.getByTestId("document-passage")).toHaveCount(10);
  await screenshots(page, "long-pdf");
  await pager.getByRole("link", { name: "Later pages →" }).click();
  await expect(pager).toContainText("Pages 11–12 of 12");
  await expect(page.getByTestId("document-text-page")).toHaveCount(2);
  await expect(page.getByRole("region", { name: "Page 12" })).toContainText("customers in Bonn renewed early");
  await expect(page.getByTestId("document-passage")).toHaveCount(2);
  await expect(page.getByTestId("document-passage").first()).toContainText("Page 11 · Chapter 11: Riga");
});
