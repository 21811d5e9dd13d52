// Conversations in the console: a conversation remembered through the API shows in the explorer as a group
// of turns in their order with who said each, its transcript reads like a chat, and a turn's page shows every
// field, its history, and an edit form whose change becomes version 2 (the API sees it too).
import { expect, test, type Page } from "@playwright/test";
import { E2E_API_KEY } from "../playwright.config";
import { expectNoSidewaysScroll, signInOnce, unique } from "./console";

const headers = { authorization: `Bearer ${E2E_API_KEY}` };
/** Where to photograph the pages for a person to look at; unset, only the phone-width check runs. */
const SHOTS = process.env.E2E_SHOTS_DIR;

const TURNS = [
  { role: "user", content: "I'm planning a summer trip. Any ideas for Portugal?" },
  { role: "assistant", content: "Lisbon in June is lively: the Santo António festival fills the streets." },
  { role: "user", content: "Great, I'll book Lisbon for the second week of June." },
  { role: "assistant", content: "Noted: Lisbon, second week of June. Pack light clothes and good shoes." },
];

let namespaceId: string;
let orgSlug: string;
let sessionId: string;
let turnIds: string[];

/** Both widths; at the phone's, the page never scrolls sideways. Photographed when E2E_SHOTS_DIR is set. */
async function bothWidths(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/conversations-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, `${name} at 390 px`);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/conversations-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.beforeAll(async ({ request }) => {
  const created = await request.post("/api/v1/namespaces", { headers, data: { name: `conversations-${unique()}` } });
  expect(created.status()).toBe(201);
  namespaceId = (await created.json()).data.id;
  const plain = await request.post("/api/v1/remember", {
    headers,
    data: { namespace_id: namespaceId, content: "Prefers aisle seats on long flights.", identity_id: "traveller" },
  });
  expect(plain.status()).toBe(201);
  sessionId = `trip-chat-${unique()}`;
  const conversation = await request.post("/api/v1/remember", {
    headers,
    data: {
      namespace_id: namespaceId,
      session_id: sessionId,
      identity_id: "traveller",
      occurred_at: "2026-05-08T13:56:00Z",
      messages: TURNS,
    },
  });
  expect(conversation.status()).toBe(201);
  const turns = (await conversation.json()).data as { id: string; position: number }[];
  expect(turns.map((turn) => turn.position)).toEqual([0, 1, 2, 3]);
  turnIds = turns.map((turn) => turn.id);
});

test.beforeEach(async ({ page }) => {
  orgSlug = await signInOnce(page, "e2e@example.com", "an e2e password");
});

const explorer = () => `/${orgSlug}/namespaces/${namespaceId}/memories`;

test("the explorer groups a conversation's turns in order with their roles; its transcript reads like a chat", async ({
  page,
}) => {
  await page.goto(explorer());
  const group = page.getByTestId("conversation-group");
  await expect(group).toHaveCount(1);
  await expect(group).toContainText(`Conversation ${sessionId}`);
  const rows = group.getByTestId("memory-row");
  await expect(rows).toHaveCount(4);
  expect(await rows.evaluateAll((items) => items.map((item) => item.getAttribute("data-position")))).toEqual([
    "0",
    "1",
    "2",
    "3",
  ]);
  expect(await rows.evaluateAll((items) => items.map((item) => item.getAttribute("data-memory-id")))).toEqual(turnIds);
  await expect(group.getByTestId("turn-label")).toHaveText(TURNS.map((turn, i) => `${turn.role}turn ${i}`));
  for (const [i, turn] of TURNS.entries()) await expect(rows.nth(i)).toContainText(turn.content);
  await bothWidths(page, "explorer");

  await group.getByRole("link", { name: "View conversation" }).click();
  await expect(page.getByRole("heading", { name: "Conversation", level: 1 })).toBeVisible();
  expect(new URL(page.url()).searchParams.get("session")).toBe(sessionId);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText(`Conversation ${sessionId}`);
  const transcript = page.getByTestId("transcript-turn");
  await expect(transcript).toHaveCount(4);
  await expect(page.getByTestId("transcript-speaker")).toHaveText(TURNS.map((turn) => turn.role));
  await expect(page.getByTestId("transcript-content")).toHaveText(TURNS.map((turn) => turn.content));
  // When it was said (the date's words are the console's format; the machine-readable time is exact).
  await expect(transcript.first().locator("time")).toHaveAttribute("datetime", "2026-05-08T13:56:00.000Z");
  await expect(transcript.first().locator("time")).toContainText("13:56");
  // The plain memory is not part of it.
  await expect(page.getByRole("main")).not.toContainText("aisle seats");
  await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText("Page 1 · 4 turns");
  await bothWidths(page, "transcript");

  // From a turn of the transcript to its page and back.
  await transcript.nth(2).getByRole("link", { name: "Turn 2: details" }).click();
  await expect(page.getByRole("heading", { name: "Memory", level: 1 })).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "View conversation" }).click();
  await expect(page.getByTestId("transcript-turn")).toHaveCount(4);
});

test("a turn's page shows every field and its history; an edit becomes version 2, the API agrees", async ({
  page,
  request,
}) => {
  const turnId = turnIds[2];
  await page.goto(`${explorer()}/${turnId}`);
  const details = page.getByTestId("memory-details");
  await expect(page.getByTestId("memory-session")).toHaveText(sessionId);
  await expect(details.getByTestId("turn-label")).toHaveText("userturn 2");
  for (const text of [
    "traveller",
    /Happened[^:]*2026[^:]*13:56 UTC/,
    "Version1",
    "Expiresnever",
    "Created",
    "Updated",
  ]) {
    await expect(details).toContainText(text);
  }
  await expect(page.getByTestId("memory-version")).toHaveCount(1);
  await expect(page.getByTestId("memory-version")).toContainText("Version 1");
  await expect(page.getByTestId("memory-version")).toContainText("as first remembered");

  await page.getByRole("button", { name: "Edit memory" }).click();
  const form = page.getByRole("form", { name: "Edit memory" });
  // A refusal of the API's validation is shown on its field, and nothing changes.
  await form.getByLabel("Metadata").fill("not json");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByRole("alert")).toContainText("must be a JSON object");
  await form.getByLabel("Metadata").fill("");
  await form.getByLabel("Expires at").fill("2001-01-01T00:00:00Z");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByRole("alert")).toContainText("must be in the future");
  expect((await (await request.get(`/api/v1/memories/${turnId}`, { headers })).json()).data.version).toBe(1);
  await bothWidths(page, "memory-edit");

  const edited = "Great, I'll book Lisbon for the third week of June instead.";
  await form.getByLabel("Expires at").fill("");
  await form.getByLabel("Content").fill(edited);
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved as version 2.")).toBeVisible();
  await expect(page.getByTestId("memory-content")).toHaveText(edited);
  await expect(page.getByTestId("memory-version-number")).toHaveText("2");
  const versions = page.getByTestId("memory-version");
  await expect(versions).toHaveCount(2);
  expect(await versions.evaluateAll((items) => items.map((item) => item.getAttribute("data-version")))).toEqual([
    "2",
    "1",
  ]);
  await expect(versions.first()).toContainText("changed content");
  await expect(versions.first()).toContainText("by console user e2e@example.com");
  await expect(page.getByTestId("memory-version-content")).toHaveText([edited, TURNS[2].content]);

  const api = (await (await request.get(`/api/v1/memories/${turnId}`, { headers })).json()).data;
  expect([api.version, api.content, api.session_id, api.position, api.role]).toEqual([2, edited, sessionId, 2, "user"]);
  await bothWidths(page, "memory");

  // The transcript shows the edited turn in its place.
  await page.goto(`${explorer()}?session=${encodeURIComponent(sessionId)}`);
  await expect(page.getByTestId("transcript-content")).toHaveText([
    TURNS[0].content,
    TURNS[1].content,
    edited,
    TURNS[3].content,
  ]);
});
