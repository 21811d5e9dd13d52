// Who may touch a webhook endpoint and where it may point: another organization's ids (endpoints, deliveries,
// namespaces) are a 404 on every route and change nothing; a key sees only the endpoints it made; a key without
// WEBHOOK_MANAGE is refused; URLs to loopback, private, link-local and metadata addresses are refused when saved
// (IP literals; names are not resolved then) and at connection time (tests/net/outbound-addresses.test.ts has every
// form of address); bad bodies are a 400 that changes nothing.
import dns from "node:dns";
import { afterEach, beforeAll, afterAll, describe, expect, test, vi } from "vitest";
import { db } from "@/lib/db";
import { api } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";
import { deliverWebhooks } from "../helpers/deliver-webhooks";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.stop());
afterEach(() => {
  delete process.env.ALLOW_PRIVATE_OUTBOUND;
  vi.restoreAllMocks();
});

async function snapshot(orgId: string) {
  const prisma = await db();
  return {
    endpoints: await prisma.webhookEndpoint.findMany({ where: { orgId }, orderBy: { id: "asc" } }),
    deliveries: await prisma.webhookDelivery.findMany({ where: { orgId }, orderBy: { id: "asc" } }),
  };
}

/** A tenant with an endpoint on the loopback receiver and one delivery in its log. */
async function tenantWithDelivery(name: string) {
  process.env.ALLOW_PRIVATE_OUTBOUND = "true";
  const tenant = await createTenant(name);
  const ns = await createNamespace(tenant.key);
  const created = await api("POST", "/webhooks", { key: tenant.key, body: { url: receiver.url } });
  receiver.secrets.push(created.body.data.secret);
  await api("POST", "/remember", { key: tenant.key, body: { namespace_id: ns.id, content: "Hello." } });
  await deliverWebhooks();
  const log = await api("GET", `/webhooks/${created.body.data.endpoint.id}/deliveries`, { key: tenant.key });
  delete process.env.ALLOW_PRIVATE_OUTBOUND;
  return {
    ...tenant,
    ns,
    endpointId: created.body.data.endpoint.id as string,
    deliveryId: log.body.data[0].id as string,
  };
}

describe("organizations and keys", () => {
  test("another organization's endpoint, delivery and namespace ids: 404 on every route, nothing changes", async () => {
    const mine = await tenantWithDelivery("Webhooks Mine");
    const theirs = await tenantWithDelivery("Webhooks Theirs");
    const before = await snapshot(theirs.org.id);
    const calls: [string, string, Record<string, unknown>?][] = [
      ["GET", `/webhooks/${theirs.endpointId}`],
      ["PATCH", `/webhooks/${theirs.endpointId}`, { enabled: false }],
      ["DELETE", `/webhooks/${theirs.endpointId}`],
      ["POST", `/webhooks/${theirs.endpointId}/rotate-secret`, {}],
      ["POST", `/webhooks/${theirs.endpointId}/test`],
      ["GET", `/webhooks/${theirs.endpointId}/deliveries`],
      ["POST", `/webhooks/${theirs.endpointId}/deliveries/${theirs.deliveryId}/redeliver`],
      // Their delivery through my endpoint.
      ["POST", `/webhooks/${mine.endpointId}/deliveries/${theirs.deliveryId}/redeliver`],
      ["POST", "/webhooks", { url: "https://example.com/hook", namespace_ids: [theirs.ns.id] }],
      ["PATCH", `/webhooks/${mine.endpointId}`, { namespace_ids: [theirs.ns.id] }],
    ];
    for (const [method, path, body] of calls) {
      const response = await api(method, path, { key: mine.key, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.success).toBe(false);
    }
    expect(await snapshot(theirs.org.id)).toEqual(before);
    expect((await api("GET", "/webhooks", { key: mine.key })).body.data.map((e: { id: string }) => e.id)).toEqual([
      mine.endpointId,
    ]);
  });

  test("a key sees only the endpoints it made; one without WEBHOOK_MANAGE is refused everywhere", async () => {
    const tenant = await tenantWithDelivery("Webhooks Keys");
    const colleague = await createKey(tenant.org.id, { namespaceIds: [tenant.ns.id] });
    for (const path of [`/webhooks/${tenant.endpointId}`, `/webhooks/${tenant.endpointId}/deliveries`]) {
      expect((await api("GET", path, { key: colleague.secret })).status, path).toBe(404);
    }
    expect((await api("GET", "/webhooks", { key: colleague.secret })).body.data).toEqual([]);

    const reader = await createKey(tenant.org.id, { permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"] });
    const before = await snapshot(tenant.org.id);
    const calls: [string, string, Record<string, unknown>?][] = [
      ["GET", "/webhooks"],
      ["POST", "/webhooks", { url: "https://example.com/hook" }],
      ["GET", `/webhooks/${tenant.endpointId}`],
      ["PATCH", `/webhooks/${tenant.endpointId}`, { enabled: false }],
      ["DELETE", `/webhooks/${tenant.endpointId}`],
      ["POST", `/webhooks/${tenant.endpointId}/rotate-secret`, {}],
      ["POST", `/webhooks/${tenant.endpointId}/test`],
      ["GET", `/webhooks/${tenant.endpointId}/deliveries`],
      ["POST", `/webhooks/${tenant.endpointId}/deliveries/${tenant.deliveryId}/redeliver`],
    ];
    for (const [method, path, body] of calls) {
      const response = await api(method, path, { key: reader.secret, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error.message).toMatch(/WEBHOOK_MANAGE/);
    }
    expect(await snapshot(tenant.org.id)).toEqual(before);
  });

  test("a secret is shown once: never in a listing, a read or the delivery log", async () => {
    const tenant = await tenantWithDelivery("Webhooks Secret");
    const secret = receiver.secrets.at(-1)!;
    for (const path of ["/webhooks", `/webhooks/${tenant.endpointId}`, `/webhooks/${tenant.endpointId}/deliveries`]) {
      const text = JSON.stringify((await api("GET", path, { key: tenant.key })).body);
      expect(text, path).not.toContain(secret.slice(6));
    }
    const prisma = await db();
    const row = await prisma.webhookEndpoint.findUnique({ where: { id: tenant.endpointId } });
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));
  });
});

describe("where an endpoint may point", () => {
  test("loopback, private, link-local, metadata and http URLs are refused when saved, with the reason", async () => {
    const { key, org } = await createTenant("Webhooks SSRF");
    const cases: [string, RegExp][] = [
      [receiver.url, /https/],
      ["https://127.0.0.1/hook", /127\.0\.0\.1/],
      ["https://10.0.0.8/hook", /private|loopback/],
      ["https://[::1]/hook", /::1/],
      ["https://169.254.169.254/latest/meta-data/", /metadata/],
      ["https://[::ffff:169.254.169.254]/", /metadata/],
      ["https://localhost/hook", /localhost: it names this machine/],
      ["https://user:pw@example.com/hook", /user name or password/],
      ["ftp://example.com/hook", /https/],
    ];
    for (const [url, reason] of cases) {
      const response = await api("POST", "/webhooks", { key, body: { url } });
      expect(response.status, url).toBe(400);
      expect(response.body.error.message, url).toMatch(reason);
    }
    // The operator setting that allows private addresses never allows the metadata service.
    process.env.ALLOW_PRIVATE_OUTBOUND = "true";
    const metadata = await api("POST", "/webhooks", { key, body: { url: "http://169.254.169.254/latest/" } });
    expect(metadata.status).toBe(400);
    expect((await snapshot(org.id)).endpoints).toEqual([]);
  });

  test("a name that resolves to a private address at delivery time is refused when connecting", async () => {
    const { key } = await createTenant("Webhooks Rebinding");
    const ns = await createNamespace(key);
    // Not resolved when saved…
    const created = await api("POST", "/webhooks", { key, body: { url: "https://hooks.example.org/in" } });
    expect(created.status).toBe(201);
    // …private when connecting (DNS rebinding).
    vi.spyOn(dns, "lookup").mockImplementation(((
      _host: string,
      _options: unknown,
      callback: (error: null, addresses: { address: string; family: number }[]) => void,
    ) => callback(null, [{ address: "127.0.0.1", family: 4 }])) as never);
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "Private?" } });
    process.env.WEBHOOK_RETRY_SCHEDULE = "3600";
    await deliverWebhooks();
    delete process.env.WEBHOOK_RETRY_SCHEDULE;
    const log = await api("GET", `/webhooks/${created.body.data.endpoint.id}/deliveries`, { key });
    expect(log.body.data[0]).toMatchObject({ status: "pending", attempts: 1, response_status: null });
    expect(log.body.data[0].last_error).toMatch(/Refused to connect to hooks\.example\.org \(127\.0\.0\.1\)/);
  });

  test("bad bodies are a 400 naming the field, and nothing is created", async () => {
    const { key, org } = await createTenant("Webhooks Bodies");
    const bodies: Record<string, unknown>[] = [
      {},
      { url: 42 },
      { url: "https://example.com/x", event_types: ["memory.made"] },
      { url: "https://example.com/x", event_types: "memory.created" },
      { url: "https://example.com/x", namespace_ids: Array.from({ length: 101 }, (_, i) => `ns_${i}`) },
      { url: "https://example.com/x", description: "a".repeat(501) },
      { url: "https://example.com/x", description: "nul\u0000here" },
      { url: "https://example.com/x", include_content: "yes" },
      { url: "https://example.com/x", secret: "whsec_mine" },
      { url: `https://example.com/${"a".repeat(2100)}` },
    ];
    for (const body of bodies) {
      const response = await api("POST", "/webhooks", { key, body });
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.error.details.length).toBeGreaterThan(0);
    }
    expect((await snapshot(org.id)).endpoints).toEqual([]);
  });
});
