// The webhooks page end to end, with a receiver on loopback that verifies every message with the
// `standardwebhooks` package and the secret the page showed once: add an endpoint (its secret shown once, gone
// after), a test ping, a memory written through the API delivered and in the delivery log (200, its payload);
// the namespace's Events tab; a receiver answering 500 gets the endpoint disabled (the page says why, the
// owners are mailed), then a test passes, Enable delivers what failed and Redeliver sends it again; rotating
// the secret; deleting. A member gets 404 pages. The server retries a failed delivery twice at once
// (WEBHOOK_RETRY_SCHEDULE in playwright.config.ts).
import { expect, test, type Page } from "@playwright/test";
import { startReceiver, type Receiver } from "../tests/helpers/webhook-receiver";
import { generateKey, openPage, PASSWORD, screenshots, signInOnce, signUp, unique } from "./console";
import { mailsTo, nextLinkTo } from "./mail";

const DELIVERY_TIMEOUT = 30_000;

const run = unique();
const email = `webhooks-${run}@example.com`;
let slug: string;
let namespace: { id: string; name: string };
let key: string;
let receiver: Receiver;
let endpointId: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  receiver = await startReceiver();
});

test.afterAll(async () => {
  await receiver?.stop();
});

/** Creates a namespace in the console; returns its name and id. */
async function createNamespace(page: Page) {
  const name = `hooks-${unique()}`;
  await page.goto(`/${slug}/namespaces`);
  await page.getByRole("button", { name: "New namespace" }).click();
  const dialog = page.getByRole("dialog", { name: "New namespace" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create namespace" }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  const id = (await page.getByTestId("namespace-id").textContent())!.trim();
  return { name, id };
}

async function remember(page: Page, content: string): Promise<string> {
  const response = await page.request.post("/api/v1/remember", {
    headers: { authorization: `Bearer ${key}` },
    data: { namespace_id: namespace.id, content, identity_id: "hook-person" },
  });
  expect(response.status()).toBe(201);
  return (await response.json()).data.id as string;
}

/** A delivery's row in the log, and the row of its payload under it. */
function delivery(page: Page, id: string) {
  return {
    row: page.locator(`[data-testid="delivery-row"][data-delivery-id="${id}"]`),
    payload: page.locator(`[data-testid="delivery-payload-row"][data-delivery-id="${id}"]`),
  };
}

test("add an endpoint: its secret once, a test, a memory's delivery in the log, the namespace's events", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page, email, `Webhooks ${run}`);
  slug = new URL(page.url()).pathname.split("/")[1];
  namespace = await createNamespace(page);
  // The only namespace: the key's dialog grants it.
  key = await generateKey(page, `hooks ${run}`);

  await openPage(page, "Webhooks");
  await expect(page.getByRole("heading", { name: "No endpoints yet" })).toBeVisible();

  // Add endpoint: two memory types, this namespace, with content.
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Add endpoint" });
  // The field says how a receiver on this machine is allowed; a refused URL is said once, under its field (the
  // server's envelope says it again in other words).
  await expect(dialog).toContainText("needs the server started with ALLOW_PRIVATE_OUTBOUND=true");
  await dialog.getByLabel("URL").fill("https://169.254.169.254/hook");
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  await expect(dialog.getByText("must not point to 169.254.169.254: it is a cloud metadata address")).toHaveCount(1);
  await expect(dialog.getByText(/cloud metadata/)).toHaveCount(1);
  await screenshots(page, "webhooks-refused-url");
  await dialog.getByLabel("URL").fill(receiver.url);
  await dialog.getByLabel("Description (optional)").fill("The e2e receiver");
  const types = dialog.getByRole("group", { name: "Event types" });
  await types.getByLabel("Only these:").check();
  await types.getByRole("checkbox", { name: "memory.created" }).click();
  await types.getByRole("checkbox", { name: "memory.deleted" }).click();
  const namespaces = dialog.getByRole("group", { name: "Namespaces" });
  await namespaces.getByLabel("Only these:").check();
  await namespaces.getByRole("checkbox", { name: namespace.name }).click();
  await dialog.getByRole("checkbox", { name: /Include content/ }).click();
  await screenshots(page, "webhooks-add-endpoint");
  await dialog.getByRole("button", { name: "Add endpoint" }).click();

  // The secret, once: stored by the receiver, gone from the page once the dialog is closed.
  const shown = page.getByRole("dialog", { name: "Endpoint added" });
  await expect(shown).toContainText("You will not see it again.");
  await expect(shown).toContainText("standardwebhooks");
  const secret = (await shown.getByTestId("webhook-secret").textContent())!.trim();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
  receiver.secrets = [secret];
  await screenshots(page, "webhooks-secret");
  await shown.getByRole("button", { name: "I have stored it" }).click();
  await expect(shown).toBeHidden();
  await expect(page.getByText(secret)).toHaveCount(0);
  await page.reload();
  expect(await page.content()).not.toContain(secret);

  const row = page.getByTestId("webhook-row").filter({ hasText: receiver.url });
  await expect(row).toHaveCount(1);
  endpointId = (await row.getAttribute("data-webhook-id"))!;
  await expect(row.getByTestId("webhook-status")).toHaveText("enabled");
  await expect(row).toContainText("The e2e receiver");
  await expect(row.getByTestId("webhook-event-types")).toHaveText(/memory\.created\s*memory\.deleted/);
  await expect(row.getByTestId("webhook-namespaces")).toHaveText(namespace.name);
  await expect(row).toContainText("Memory events carry the memory's content");
  await expect(row.getByTestId("webhook-secret-hint")).toHaveText(`${secret.slice(0, 10)}…`);

  // A test ping: signed, verified by the receiver, answered 200.
  await row.getByRole("button", { name: `Send a test to ${receiver.url}` }).click();
  await expect(row.getByTestId("webhook-test-result")).toContainText("The test was delivered: HTTP 200 in");
  expect(receiver.ofType("webhook.test")).toHaveLength(1);

  // A memory written through the API is delivered, with its content, and logged.
  const memoryId = await remember(page, "Prefers tea in the afternoon.");
  await expect.poll(() => receiver.ofType("memory.created").length, { timeout: DELIVERY_TIMEOUT }).toBe(1);
  const [created] = receiver.ofType("memory.created");
  // The message's data is the event, as the feed has it, with the memory's content asked for.
  expect(created.data).toMatchObject({
    type: "memory.created",
    namespace_id: namespace.id,
    identity_id: "hook-person",
    data: { memory_id: memoryId },
    content: "Prefers tea in the afternoon.",
  });

  await row.getByRole("link", { name: `Delivery log of ${receiver.url}` }).click();
  await expect(page.getByRole("heading", { name: "Webhook endpoint", level: 1 })).toBeVisible();
  await expect(page.getByTestId("webhook-url")).toHaveText(receiver.url);
  const logged = page.getByTestId("delivery-row").filter({ hasText: created.id });
  const deliveryId = (await logged.getAttribute("data-delivery-id"))!;
  const { row: deliveryRow, payload } = delivery(page, deliveryId);
  await expect(deliveryRow.getByTestId("delivery-status")).toHaveText("delivered", { timeout: DELIVERY_TIMEOUT });
  await expect(deliveryRow.getByTestId("delivery-response")).toHaveText("200");
  await expect(deliveryRow.getByTestId("delivery-attempts")).toHaveText("1 attempt");
  await expect(deliveryRow).toContainText("Delivered");
  await payload.getByText("Payload").click();
  await expect(payload.getByTestId("delivery-payload")).toContainText(`"memory_id": "${memoryId}"`);
  await expect(payload.getByTestId("delivery-payload")).toContainText('"type": "memory.created"');
  // The status filter: nothing failed, the delivery among the delivered.
  await page.getByRole("navigation", { name: "Delivery status" }).getByRole("link", { name: "Failed" }).click();
  await expect(page.getByRole("heading", { name: "No failed deliveries" })).toBeVisible();
  await page.getByRole("navigation", { name: "Delivery status" }).getByRole("link", { name: "Delivered" }).click();
  await expect(page.getByTestId("delivery-row").filter({ hasText: created.id })).toHaveCount(1);
  await page.getByRole("navigation", { name: "Delivery status" }).getByRole("link", { name: "All" }).click();
  await expect(page.getByTestId("delivery-row").filter({ hasText: created.id })).toHaveCount(1);
  await payload.getByText("Payload").click();
  await screenshots(page, "webhook-endpoint");

  await page.getByRole("link", { name: "← Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await screenshots(page, "webhooks");

  // The namespace's Events tab: newest first, with the identity and the event's ids.
  await page.goto(`/${slug}/namespaces/${namespace.id}`);
  await page.getByRole("navigation", { name: "Namespace" }).getByRole("link", { name: "Events" }).click();
  await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
  const events = page.getByTestId("event-row");
  await expect(events.first().getByTestId("event-type")).toHaveText("memory.created");
  await expect(events.first()).toContainText("hook-person");
  await expect(events.first().getByTestId("event-details")).toContainText(memoryId);
  await expect(events.filter({ hasText: "namespace.created" })).toHaveCount(1);
  // Read on from the cursor: a memory written since comes first.
  const later = await remember(page, "Takes the train on Fridays.");
  await expect(async () => {
    await page.getByRole("button", { name: "Check for newer events" }).click();
    await expect(events.first().getByTestId("event-details")).toContainText(later, { timeout: 1_000 });
  }).toPass({ timeout: DELIVERY_TIMEOUT });
  await screenshots(page, "namespace-events");
  await expect.poll(() => receiver.ofType("memory.created").length, { timeout: DELIVERY_TIMEOUT }).toBe(2);
});

test("a failing receiver disables the endpoint; a test, Enable delivers it, Redeliver sends it again", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInOnce(page, email, PASSWORD);
  receiver.answer = 500;
  const memoryId = await remember(page, "Is allergic to peanuts.");

  // Three attempts (the first and two retries), then the endpoint is disabled and the page says why.
  await page.goto(`/${slug}/webhooks/${endpointId}`);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("webhook-status")).toHaveText("disabled", { timeout: 1_000 });
  }).toPass({ timeout: DELIVERY_TIMEOUT });
  const reason = page.getByTestId("webhook-disabled-reason");
  await expect(reason).toContainText("failed 3 times");
  await expect(reason).toContainText("HTTP 500.");
  // The memory's delivery: the newest, failed for good.
  const newest = page.getByTestId("delivery-row").first();
  const { row: failed, payload } = delivery(page, (await newest.getAttribute("data-delivery-id"))!);
  await payload.getByText("Payload").click();
  await expect(payload.getByTestId("delivery-payload")).toContainText(`"memory_id": "${memoryId}"`);
  await expect(failed.getByTestId("delivery-status")).toHaveText("failed");
  await expect(failed.getByTestId("delivery-response")).toHaveText("500");
  await expect(failed.getByTestId("delivery-attempts")).toHaveText("3 attempts");
  await expect(failed.getByTestId("delivery-error")).toHaveText("HTTP 500.");
  await expect(failed).toContainText("Given up");
  // The owners are told.
  await expect
    .poll(() => mailsTo(email).some((mail) => mail.includes("Webhook endpoint disabled")), { timeout: 10_000 })
    .toBe(true);
  // The list says so too.
  await page.goto(`/${slug}/webhooks`);
  const row = page.getByTestId("webhook-row").filter({ hasText: receiver.url });
  await expect(row.getByTestId("webhook-status")).toHaveText("disabled");
  await expect(row.getByTestId("webhook-disabled-reason")).toContainText("failed 3 times");
  await screenshots(page, "webhooks-disabled");

  // The receiver is fixed: a test says so (a disabled endpoint can be tested), then Enable and Redeliver.
  receiver.answer = 200;
  await page.goto(`/${slug}/webhooks/${endpointId}`);
  await page.getByRole("button", { name: `Send a test to ${receiver.url}` }).click();
  await expect(page.getByTestId("webhook-test-result")).toContainText("The test was delivered: HTTP 200");
  await page.getByRole("button", { name: `Enable ${receiver.url}` }).click();
  await expect(page.getByRole("main").getByRole("status").filter({ hasText: "The endpoint is enabled" })).toBeVisible();
  await expect(page.getByTestId("webhook-status")).toHaveText("enabled");
  await expect(page.getByTestId("webhook-disabled-reason")).toHaveCount(0);
  // Enabling sends what waited, the delivery that failed for good first.
  await expect(failed.getByTestId("delivery-status")).toHaveText("delivered", { timeout: DELIVERY_TIMEOUT });
  await expect(failed.getByTestId("delivery-response")).toHaveText("200");
  const ofMemory = () =>
    receiver
      .ofType("memory.created")
      .filter((message) => (message.data.data as { memory_id?: string } | undefined)?.memory_id === memoryId);
  await expect.poll(() => ofMemory().length).toBe(1);
  // Redeliver sends it again, with the same webhook-id (a receiver can tell it has it).
  await failed.getByRole("button", { name: /^Redeliver memory\.created/ }).click();
  await expect(page.getByRole("main").getByRole("status").filter({ hasText: "queued to be sent again" })).toBeVisible();
  await expect.poll(() => ofMemory().length, { timeout: DELIVERY_TIMEOUT }).toBe(2);
  expect(new Set(ofMemory().map((message) => message.id)).size).toBe(1);
  await expect(failed.getByTestId("delivery-status")).toHaveText("delivered", { timeout: DELIVERY_TIMEOUT });
  await expect(failed.getByTestId("delivery-response")).toHaveText("200");
  await screenshots(page, "webhook-endpoint-redelivered");
});

test("rotating the secret shows the new one once and signs with it; deleting removes the endpoint", async ({
  page,
}) => {
  await signInOnce(page, email, PASSWORD);
  await page.goto(`/${slug}/webhooks/${endpointId}`);
  const oldHint = (await page.getByTestId("webhook-secret-hint").textContent())!;
  await page.getByRole("button", { name: `Rotate the secret of ${receiver.url}` }).click();
  const rotate = page.getByRole("dialog", { name: "Rotate the signing secret" });
  await rotate.getByLabel("Overlap (hours)").fill("200");
  await rotate.getByRole("button", { name: "Rotate secret" }).click();
  await expect(rotate.getByRole("alert")).toContainText("0 to 168");
  await rotate.getByLabel("Overlap (hours)").fill("1");
  await rotate.getByRole("button", { name: "Rotate secret" }).click();
  const shown = page.getByRole("dialog", { name: "New signing secret" });
  await expect(shown).toContainText("signed with both the previous and this secret");
  const secret = (await shown.getByTestId("webhook-secret").textContent())!.trim();
  expect(secret).not.toBe(receiver.secrets[0]);
  await shown.getByRole("button", { name: "I have stored it" }).click();
  await expect(shown).toBeHidden();
  await expect(page.getByTestId("webhook-secret-hint")).toHaveText(`${secret.slice(0, 10)}…`);
  expect(oldHint).not.toBe(`${secret.slice(0, 10)}…`);
  await expect(page.getByRole("main")).toContainText("The previous secret also signs until");
  // Only the new secret now: the receiver's check passes with it.
  receiver.secrets = [secret];
  await page.getByRole("button", { name: `Send a test to ${receiver.url}` }).click();
  await expect(page.getByTestId("webhook-test-result")).toContainText("The test was delivered: HTTP 200");

  await page.getByRole("button", { name: `Delete ${receiver.url}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this endpoint?" });
  await confirm.getByRole("button", { name: "Delete endpoint" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No endpoints yet" })).toBeVisible();
  expect((await page.goto(`/${slug}/webhooks/${endpointId}`))!.status()).toBe(404);
});

test("a member has no Webhooks page: 404, and no link to it", async ({ page, browser }) => {
  await signInOnce(page, email, PASSWORD);
  // An owner's own 404: an id no endpoint has.
  expect((await page.goto(`/${slug}/webhooks/whk_unknown`))!.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();

  const memberEmail = `webhooks-member-${run}@example.com`;
  await page.goto(`/${slug}/members`);
  await page.getByLabel("Email").fill(memberEmail);
  await page.locator("select[name=role]").selectOption("member");
  await page.getByRole("button", { name: "Send invitation" }).click();
  const member = await (await browser.newContext()).newPage();
  await member.goto(await nextLinkTo(memberEmail));
  await expect(member.getByTestId("signed-in-as")).toHaveText(memberEmail);
  await member.goto(`/${slug}`);
  await expect(member.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Webhooks" })).toHaveCount(
    0,
  );
  for (const path of [`/${slug}/webhooks`, `/${slug}/webhooks/${endpointId}`]) {
    expect((await member.goto(path))!.status(), path).toBe(404);
    await expect(member.getByRole("heading", { name: "Not found" }), path).toBeVisible();
  }
  await member.context().close();
});
