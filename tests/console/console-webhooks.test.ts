// The webhooks page's server actions and the Events tab's, called directly as a browser could (any arguments):
// each re-checks the person's membership and role (WEBHOOK_MANAGE: owners and admins); an endpoint, delivery
// or namespace id of another organization is "not found" and changes nothing; the signing secret comes back
// only from adding an endpoint and rotating its secret.
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";

const getServerSession = vi.hoisted(() => vi.fn());
vi.mock("next-auth", () => ({ getServerSession }));
vi.mock("@/lib/console/auth", () => ({ authOptions: async () => ({}) }));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

const actions = await import("@/lib/console/actions/webhooks");
const { newerNamespaceEventsAction } = await import("@/lib/console/actions/events");
const { db } = await import("@/lib/db");
const { SYSTEM_ACTOR } = await import("@/lib/audit/audit");
const { createOrganization } = await import("@/lib/orgs/organizations");
const { createUser } = await import("@/lib/orgs/users");
const { addMember } = await import("@/lib/orgs/members");
const { memberPrincipal } = await import("@/lib/auth/principal");
const { createNamespace } = await import("@/lib/namespaces/namespaces");
const { remember } = await import("@/lib/memory/write/remember");
const { deliverWebhooks } = await import("../helpers/deliver-webhooks");
const { startReceiver } = await import("../helpers/webhook-receiver");

type Role = "owner" | "admin" | "member";
type Org = { id: string; slug: string };

async function person(orgId: string, role: Role) {
  const user = await createUser({ email: `${role}-${Math.random().toString(36).slice(2)}@x.test` });
  await addMember({ orgId, userId: user.id, role }, SYSTEM_ACTOR);
  return user;
}

function signedInAs(userId: string) {
  getServerSession.mockResolvedValue({ userId, sessionId: "ses_test", method: "password" });
}

const receiver = await startReceiver();
let orgA: Org;
let orgB: Org;
let adminA: { id: string };
let memberA: { id: string };
let ownerB: { id: string };
let namespaceB: { id: string };
/** Org B's endpoint and one of its deliveries: what org A's people try to reach. */
let endpointB: string;
let deliveryB: string;

async function snapshot() {
  const prisma = await db();
  return {
    endpoints: await prisma.webhookEndpoint.findMany({ orderBy: { id: "asc" } }),
    deliveries: await prisma.webhookDelivery.findMany({ orderBy: { id: "asc" } }),
  };
}

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_OUTBOUND = "true";
  orgA = await createOrganization("Acme Hooks", SYSTEM_ACTOR);
  orgB = await createOrganization("Beta Hooks", SYSTEM_ACTOR);
  [adminA, memberA, ownerB] = await Promise.all([
    person(orgA.id, "admin"),
    person(orgA.id, "member"),
    person(orgB.id, "owner"),
  ]);
  const principalB = memberPrincipal({ orgId: orgB.id, userId: ownerB.id, role: "owner" });
  namespaceB = await createNamespace(principalB, { name: "beta-notes" });
  signedInAs(ownerB.id);
  const created = await actions.createWebhookAction(orgB.slug, { url: receiver.url });
  if (!created.ok) throw new Error(JSON.stringify(created));
  endpointB = created.data.endpoint.id;
  receiver.secrets.push(created.data.secret);
  await remember(principalB, { namespace_id: namespaceB.id }, [{ content: "Beta's note." }]);
  await deliverWebhooks();
  deliveryB = (await (await db()).webhookDelivery.findFirstOrThrow({ where: { endpointId: endpointB } })).id;
});
beforeEach(() => getServerSession.mockReset());
afterAll(async () => {
  delete process.env.ALLOW_PRIVATE_OUTBOUND;
  await receiver.stop();
});

describe("webhook actions", () => {
  test("an admin adds an endpoint: its secret once; a test reaches the receiver, verified", async () => {
    signedInAs(adminA.id);
    const created = await actions.createWebhookAction(orgA.slug, { url: receiver.url, description: "CRM sync" });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.data.secret).toMatch(/^whsec_/);
    receiver.secrets.push(created.data.secret);
    const tested = await actions.testWebhookAction(orgA.slug, { webhook_id: created.data.endpoint.id });
    expect(tested).toMatchObject({ ok: true, data: { delivered: true, response_status: 200 } });
    const disabled = await actions.setWebhookEnabledAction(orgA.slug, {
      webhook_id: created.data.endpoint.id,
      enabled: false,
    });
    expect(disabled).toMatchObject({ ok: true, data: { enabled: false } });
    expect(JSON.stringify(disabled)).not.toContain(created.data.secret.slice(6));
  });

  test("another organization's endpoint, delivery and namespace ids are not found; nothing changes", async () => {
    signedInAs(adminA.id);
    const own = await actions.createWebhookAction(orgA.slug, { url: receiver.url });
    if (!own.ok) throw new Error(JSON.stringify(own));
    const before = await snapshot();
    const refusals = [
      await actions.setWebhookEnabledAction(orgA.slug, { webhook_id: endpointB, enabled: false }),
      await actions.rotateWebhookSecretAction(orgA.slug, { webhook_id: endpointB, overlap_hours: 1 }),
      await actions.testWebhookAction(orgA.slug, { webhook_id: endpointB }),
      await actions.deleteWebhookAction(orgA.slug, { webhook_id: endpointB }),
      await actions.redeliverWebhookAction(orgA.slug, { webhook_id: endpointB, delivery_id: deliveryB }),
      await actions.redeliverWebhookAction(orgA.slug, { webhook_id: own.data.endpoint.id, delivery_id: deliveryB }),
      await actions.createWebhookAction(orgA.slug, { url: receiver.url, namespace_ids: [namespaceB.id] }),
      await newerNamespaceEventsAction(orgA.slug, { namespace_id: namespaceB.id, after: "x.y" }),
    ];
    for (const refusal of refusals)
      expect(refusal).toMatchObject({ ok: false, error: expect.stringMatching(/not found/i) });
    // The organization slug is the person's: another organization's slug is refused before anything runs.
    const foreignSlug = await actions.deleteWebhookAction(orgB.slug, { webhook_id: endpointB });
    expect(foreignSlug.ok).toBe(false);
    expect(await snapshot()).toEqual(before);
  });

  test("a member (role member) is refused every webhook action", async () => {
    signedInAs(adminA.id);
    const own = await actions.createWebhookAction(orgA.slug, { url: receiver.url });
    if (!own.ok) throw new Error(JSON.stringify(own));
    const before = await snapshot();
    signedInAs(memberA.id);
    const id = own.data.endpoint.id;
    const refusals = [
      await actions.createWebhookAction(orgA.slug, { url: receiver.url }),
      await actions.setWebhookEnabledAction(orgA.slug, { webhook_id: id, enabled: false }),
      await actions.rotateWebhookSecretAction(orgA.slug, { webhook_id: id, overlap_hours: 1 }),
      await actions.testWebhookAction(orgA.slug, { webhook_id: id }),
      await actions.deleteWebhookAction(orgA.slug, { webhook_id: id }),
      await actions.redeliverWebhookAction(orgA.slug, { webhook_id: id, delivery_id: deliveryB }),
    ];
    for (const refusal of refusals)
      expect(refusal).toMatchObject({ ok: false, error: expect.stringMatching(/member/) });
    expect(await snapshot()).toEqual(before);
  });

  test("bad input is refused with the field's message, and nothing is created", async () => {
    signedInAs(adminA.id);
    const before = await snapshot();
    for (const form of [
      { url: "http://169.254.169.254/latest/" },
      { url: receiver.url, event_types: ["memory.made"] },
      { url: receiver.url, unknown: true },
      "not a form",
    ]) {
      const result = await actions.createWebhookAction(orgA.slug, form);
      expect(result.ok, JSON.stringify(form)).toBe(false);
    }
    expect(await snapshot()).toEqual(before);
  });
});
