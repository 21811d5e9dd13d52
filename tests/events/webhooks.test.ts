// Webhooks end to end against a real receiver on loopback that verifies every signature with `standardwebhooks`:
// every event type arrives, in order per namespace, content only when asked for and readable; a failing receiver
// is retried with backoff, then its endpoint is disabled (audit entry, owners told); rotation signs with both
// secrets for the overlap; redelivery keeps the webhook-id.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { memberPrincipal } from "@/lib/auth/principal";
import { revokeApiKey } from "@/lib/auth/api-keys/revoke-api-key";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { EVENT_TYPES } from "@/lib/event-recording/event-types";
import { runDueJobs } from "@/lib/jobs/queue";
import { extractionJobRunners } from "@/lib/memory/inference/run-extraction";
import { startOpenAIServer } from "../helpers/openai-server";
import { recordEvents } from "@/lib/event-recording/record-events";
import { webhookJobRunners } from "@/lib/events/webhooks/deliver";
import { claimJob } from "@/lib/jobs/claim-job";
import { enqueueJob, RetryLaterError, runClaimedJob, startJobWorker, type JobRunner } from "@/lib/jobs/queue";
import { WEBHOOK_DELIVERY_JOB, WEBHOOK_GATHER_MS } from "@/lib/event-recording/webhook-delivery-job";
import { sweepExpiredMemories } from "@/lib/memory/forget/expiry";
import { runOperation } from "@/lib/operations/run";
import { operations } from "@/lib/operations/catalogue";
import { addMember } from "@/lib/orgs/members";
import { createUser } from "@/lib/orgs/users";
import { api } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";
import { connect, forgetFake, runSyncs, useFake } from "../helpers/integrations";
import { startNotionFake } from "../helpers/providers/notion";
import { deliverWebhooks } from "../helpers/deliver-webhooks";
import { settled, settledThenDelivered } from "../helpers/settled";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

let receiver: Receiver;
// The owners' mail goes over SMTP to this server, as it would to a real one.
const mails: { to: string; text: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      mails.push({
        to: session.envelope.rcptTo.map((r) => r.address).join(","),
        text: Buffer.concat(chunks).toString(),
      });
      callback();
    });
  },
});
beforeAll(async () => {
  receiver = await startReceiver();
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await receiver.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  delete process.env.SMTP_URL;
});
beforeEach(() => {
  // The receiver is on loopback over http: what the operator setting allows (tests, private deployments).
  process.env.ALLOW_PRIVATE_OUTBOUND = "true";
  process.env.WEBHOOK_RETRY_SCHEDULE = "0,0";
  receiver.messages.length = 0;
  receiver.requests.length = 0;
  receiver.secrets.length = 0;
  receiver.answer = 200;
  receiver.delayMs = 0;
});
afterEach(() => {
  delete process.env.ALLOW_PRIVATE_OUTBOUND;
  delete process.env.WEBHOOK_RETRY_SCHEDULE;
});

const deliver = deliverWebhooks;

async function addEndpoint(key: string, body: Record<string, unknown> = {}) {
  const created = await api("POST", "/webhooks", { key, body: { url: receiver.url, ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { endpoint, secret } = created.body.data as { endpoint: { id: string }; secret: string };
  receiver.secrets.push(secret);
  return { id: endpoint.id, secret };
}

/**
 * An organization whose endpoint answers 503 to one namespace's events (retried in ten minutes) and 200 to
 * another's, with one event of the refused namespace written.
 */
async function oneNamespaceRefused(name: string) {
  process.env.WEBHOOK_RETRY_SCHEDULE = "600,600";
  const { key } = await createTenant(name);
  const failing = await createNamespace(key);
  const working = await createNamespace(key);
  await addEndpoint(key, { event_types: ["memory.created"] });
  receiver.answer = (message) => (message.data.namespace_id === failing.id ? 503 : 200);
  await api("POST", "/remember", { key, body: { namespace_id: failing.id, content: "Refused." } });
  return { key, failing, working };
}

/** An owner of a new organization, acting in the console: their endpoints receive the whole organization's events. */
async function ownerOf(name: string) {
  const tenant = await createTenant(name);
  const user = await createUser({ email: `${name.replace(/\W/g, "").toLowerCase()}-${Date.now()}@example.com` });
  await addMember({ orgId: tenant.org.id, userId: user.id, role: "owner" }, SYSTEM_ACTOR);
  return {
    ...tenant,
    owner: memberPrincipal({ orgId: tenant.org.id, userId: user.id, role: "owner" }),
    email: user.email,
  };
}

describe("event types", () => {
  test("every kind of change reaches an organization-wide endpoint, signed, in order per namespace", async () => {
    const tenant = await ownerOf("Every Event");
    const created = await runOperation(operations.createWebhook, tenant.owner, {
      body: async () => ({ url: receiver.url }),
    });
    expect(created.status).toBe(201);
    const secret = (created.data as { secret: string }).secret;
    expect(secret).toMatch(/^whsec_/);
    receiver.secrets.push(secret);
    const key = tenant.key;

    const ns = await createNamespace(key);
    await api("PATCH", `/namespaces/${ns.id}`, { key, body: { name: "renamed" } });
    const remembered = await api("POST", "/remember", {
      key,
      body: { namespace_id: ns.id, content: "Ada prefers tea.", identity_id: "ada" },
    });
    const memoryId = remembered.body.data.id as string;
    await api("PATCH", `/memories/${memoryId}`, { key, body: { content: "Ada prefers green tea." } });
    for (const content of ["Ada lives in Porto.", "Ada lives in Lisbon."]) {
      const slot = { namespace_id: ns.id, content, identity_id: "ada", fact_key: "home_city" };
      expect((await api("POST", "/remember", { key, body: slot })).status).toBe(201);
    }
    // A chat model's extraction: one that completes, one whose answers are never valid.
    const chat = (content: string) => ({
      json: {
        id: "c",
        object: "chat.completion",
        created: 1,
        model: "m",
        choices: [{ index: 0, message: { role: "assistant", content } }],
      },
    });
    const replies = [chat(JSON.stringify({ facts: [], invalidate: [] })), chat("not json"), chat("not json")];
    const openai = await startOpenAIServer({ chat: () => replies.shift()! });
    Object.assign(process.env, { OPENAI_BASE_URL: openai.baseURL, OPENAI_API_KEY: "sk-test" });
    try {
      for (const content of ["Ada got a cat.", "Ada got a dog."]) {
        const inferred = { namespace_id: ns.id, content, identity_id: "ada", infer: true };
        expect((await api("POST", "/remember", { key, body: inferred })).status).toBe(201);
      }
      expect(await runDueJobs(extractionJobRunners)).toBe(2);
    } finally {
      delete process.env.OPENAI_BASE_URL;
      delete process.env.OPENAI_API_KEY;
      await openai.close();
    }
    await api("POST", "/remember", {
      key,
      body: {
        namespace_id: ns.id,
        session_id: "s1",
        messages: [
          { role: "user", content: "Hello there." },
          { role: "assistant", content: "Hi, how can I help?" },
        ],
      },
    });
    const short = await api("POST", "/remember", {
      key,
      body: { namespace_id: ns.id, content: "Brief.", ttl_seconds: 1 },
    });
    expect(short.status).toBe(201);
    await api("POST", "/forget", { key, body: { namespace_id: ns.id, memory_ids: [memoryId] } });
    await api("POST", "/forget", { key, body: { namespace_id: ns.id, identity_id: "nobody" } });
    const imported = await api("POST", `/namespaces/${ns.id}/import`, {
      key,
      rawBody: JSON.stringify({ content: "Imported line." }) + "\n",
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const badImport = await api("POST", `/namespaces/${ns.id}/import`, {
      key,
      rawBody: "not json\n",
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(badImport.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await sweepExpiredMemories();

    const other = await createKey(tenant.org.id, { name: "short-lived" });
    await revokeApiKey(other.id, SYSTEM_ACTOR);
    const connection = await createApiKey(
      {
        orgId: tenant.org.id,
        name: "Claude Desktop",
        permissions: ["NAMESPACE_READ"],
        namespaceIds: [ns.id],
        oauth: { clientId: "client-1", grantId: `grant-${Date.now()}` },
      },
      SYSTEM_ACTOR,
    );
    await revokeApiKey(connection.key.id, SYSTEM_ACTOR);

    const fake = await startNotionFake();
    useFake(fake);
    try {
      const synced = await createNamespace(key);
      await connect(key, fake, { namespace_id: synced.id });
      await runSyncs();
      fake.expireAccessTokens();
      fake.refuseRefreshTokens();
      const conn = (await api("GET", "/integrations/connections", { key })).body.data[0];
      await api("POST", `/integrations/connections/${conn.id}/sync`, { key });
      await runSyncs();
    } finally {
      forgetFake("notion");
      await fake.stop();
    }
    await api("DELETE", `/namespaces/${ns.id}`, { key });
    await deliver();

    const types = new Set(receiver.messages.map((message) => message.type));
    for (const type of EVENT_TYPES) expect(types, type).toContain(type);
    expect(receiver.requests.every((request) => request.verified)).toBe(true);

    const reasons = receiver.ofType("memory.deleted").map((message) => message.data.data.reason);
    expect(reasons).toEqual(expect.arrayContaining(["forget", "expiry", "namespace_deletion"]));
    const updated = receiver.ofType("memory.updated")[0].data;
    expect(updated).toMatchObject({ namespace_id: ns.id, identity_id: "ada", data: { memory_id: memoryId } });
    expect(updated.data.changed_fields).toEqual(["content"]);
    // No content unless the endpoint asks for it.
    expect(receiver.messages.some((message) => "content" in message.data)).toBe(false);
    // Each namespace's events arrive in the order they happened, each once.
    const ofNamespace = receiver.messages.filter((message) => message.data.namespace_id === ns.id);
    expect(ofNamespace[0].type).toBe("namespace.created");
    expect(ofNamespace.at(-1)!.type).toBe("namespace.deleted");
    const created1 = ofNamespace.findIndex((m) => m.type === "memory.created");
    const updated1 = ofNamespace.findIndex((m) => m.type === "memory.updated");
    const deleted1 = ofNamespace.findIndex((m) => m.type === "memory.deleted");
    expect(created1).toBeLessThan(updated1);
    expect(updated1).toBeLessThan(deleted1);
    const ids = receiver.messages.map((message) => message.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("filters and content", () => {
  test("an endpoint receives its types and namespaces only; content only when it asks", async () => {
    const { key } = await createTenant("Filters");
    const a = await createNamespace(key);
    const b = await createNamespace(key);
    await addEndpoint(key, { event_types: ["memory.created"], namespace_ids: [a.id], include_content: true });
    await api("POST", "/remember", { key, body: { namespace_id: a.id, content: "In A." } });
    await api("POST", "/remember", { key, body: { namespace_id: b.id, content: "In B." } });
    await api("PATCH", `/namespaces/${a.id}`, { key, body: { name: "a2" } });
    await deliver();
    expect(receiver.messages.map((m) => [m.type, m.data.namespace_id, m.data.content])).toEqual([
      ["memory.created", a.id, "In A."],
    ]);
  });

  test("an endpoint made by a key with scopes receives only what the key can read, its namespaces only", async () => {
    const tenant = await createTenant("Scoped Endpoint");
    const a = await createNamespace(tenant.key);
    const b = await createNamespace(tenant.key);
    const scoped = await createKey(tenant.org.id, {
      permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE", "WEBHOOK_MANAGE"],
      scopes: { team: "red" },
      namespaceIds: [a.id],
    });
    await addEndpoint(scoped.secret, { include_content: true });
    const write = (namespaceId: string, content: string, scopes?: Record<string, string>) =>
      api("POST", "/remember", { key: tenant.key, body: { namespace_id: namespaceId, content, scopes } });
    await write(a.id, "Red team note.", { team: "red" });
    await write(a.id, "Blue team note.", { team: "blue" });
    await write(a.id, "Unscoped note.");
    await write(b.id, "Red in another namespace.", { team: "red" });
    await deliver();
    expect(receiver.messages.map((m) => m.data.content)).toEqual(["Red team note."]);
    // Its key revoked, the endpoint receives nothing more and is disabled, saying why.
    await revokeApiKey(scoped.id, SYSTEM_ACTOR);
    await write(a.id, "After the key ended.", { team: "red" });
    await deliver();
    expect(receiver.messages).toHaveLength(1);
    const prisma = await db();
    const endpoints = await prisma.webhookEndpoint.findMany({ where: { orgId: tenant.org.id } });
    expect(endpoints.map((endpoint) => [endpoint.enabled, endpoint.disabledReason])).toEqual([
      [false, "The API key that made this endpoint was revoked."],
    ]);
  });
});

describe("retries, disabling, rotation, redelivery", () => {
  test("a failing receiver is retried, then its endpoint is disabled, with an audit entry, owners mailed", async () => {
    const tenant = await ownerOf("Failing Receiver");
    const ns = await createNamespace(tenant.key);
    const endpoint = await addEndpoint(tenant.key, { namespace_ids: [ns.id] });
    receiver.answer = 500;
    await api("POST", "/remember", { key: tenant.key, body: { namespace_id: ns.id, content: "Lost?" } });
    await deliver();
    // The first attempt and the schedule's two retries, then it gave up.
    expect(receiver.requests.map((request) => request.status)).toEqual([500, 500, 500]);
    const state = await api("GET", `/webhooks/${endpoint.id}`, { key: tenant.key });
    expect(state.body.data.enabled).toBe(false);
    expect(state.body.data.disabled_reason).toMatch(/failed 3 times.*HTTP 500/);
    const log = await api("GET", `/webhooks/${endpoint.id}/deliveries`, { key: tenant.key });
    expect(log.body.data[0]).toMatchObject({ status: "failed", attempts: 3, response_status: 500 });
    const prisma = await db();
    const audit = await prisma.auditLog.findFirst({ where: { orgId: tenant.org.id, action: "webhook.disable" } });
    expect(audit?.targetId).toBe(endpoint.id);
    const mail = mails.find((sent) => sent.to === tenant.email);
    expect(mail?.text).toMatch(/Webhook endpoint disabled in Failing Receiver/);
    expect(mail?.text).toMatch(/HTTP 500/);

    // Disabled, it receives nothing; fixed and enabled again, what failed arrives first; a redelivery arrives
    // again with the same webhook-id.
    receiver.answer = 200;
    await api("POST", "/remember", { key: tenant.key, body: { namespace_id: ns.id, content: "While disabled." } });
    await deliver();
    expect(receiver.messages).toHaveLength(0);
    const enabled = await api("PATCH", `/webhooks/${endpoint.id}`, { key: tenant.key, body: { enabled: true } });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: null });
    await deliver();
    expect(receiver.messages.map((m) => m.id)).toEqual([log.body.data[0].event_id]);
    const redelivered = await api("POST", `/webhooks/${endpoint.id}/deliveries/${log.body.data[0].id}/redeliver`, {
      key: tenant.key,
    });
    expect(redelivered.status).toBe(202);
    await deliver();
    expect(receiver.messages.map((m) => m.id)).toEqual([log.body.data[0].event_id, log.body.data[0].event_id]);
  });

  test("a disabled endpoint's reason gives the time its failures spanned, not the retry schedule's sum", async () => {
    // Two hours of retries by the schedule; here each retry is made due early (as if the time had passed), so
    // the failures span a few seconds: what the reason and the owners' mail must say.
    process.env.WEBHOOK_RETRY_SCHEDULE = "3600,3600";
    const tenant = await ownerOf("Failure Span");
    const ns = await createNamespace(tenant.key);
    const endpoint = await addEndpoint(tenant.key, { namespace_ids: [ns.id] });
    receiver.answer = 500;
    await api("POST", "/remember", { key: tenant.key, body: { namespace_id: ns.id, content: "Span." } });
    const prisma = await db();
    for (let attempt = 1; attempt <= 3; attempt++) {
      if (attempt > 1) {
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        await prisma.webhookDelivery.updateMany({
          where: { endpointId: endpoint.id },
          data: { nextAttemptAt: new Date() },
        });
        await prisma.job.updateMany({ where: { orgId: tenant.org.id }, data: { runAfter: new Date() } });
      }
      await deliver();
    }
    expect(receiver.requests.map((request) => request.status)).toEqual([500, 500, 500]);
    const state = await api("GET", `/webhooks/${endpoint.id}`, { key: tenant.key });
    expect(state.body.data.enabled).toBe(false);
    // At least the two 1.1 s pauses; more when each run first waits for another test file's transaction to end
    // (deliver settles), on PostgreSQL. The schedule's sum would be two hours.
    const span = /failed 3 times over (\d+) seconds; the last attempt: .*HTTP 500/.exec(
      state.body.data.disabled_reason,
    );
    expect(span, state.body.data.disabled_reason).not.toBeNull();
    expect(Number(span![1])).toBeGreaterThanOrEqual(2);
    expect(Number(span![1])).toBeLessThan(60);
    const mail = mails.find((sent) => sent.to === tenant.email);
    expect(mail?.text).toContain(`failed 3 times over ${span![1]} seconds`);
  });

  test("a receiver down for a while gets every event once it is back, in order, none twice", async () => {
    process.env.WEBHOOK_RETRY_SCHEDULE = "1,1,1,1,1,1,1,1,1,1";
    const { key } = await createTenant("Outage");
    const ns = await createNamespace(key);
    await addEndpoint(key, { namespace_ids: [ns.id], event_types: ["memory.created"] });
    receiver.answer = 503;
    for (let i = 1; i <= 5; i++)
      await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: `Note ${i}.` } });
    await deliver();
    // Only the first was tried: the others wait behind it (order per namespace).
    expect(new Set(receiver.requests.map((r) => r.id)).size).toBe(1);
    receiver.answer = 200;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await deliver();
    const contents = receiver.messages.map((m) => m.data.data.memory_id);
    expect(contents).toHaveLength(5);
    expect(new Set(receiver.messages.map((m) => m.id)).size).toBe(5);
  });

  test("a namespace waiting for its retry does not hold back another namespace's new events", async () => {
    const { key, working } = await oneNamespaceRefused("Head Of Line");
    await deliver();
    expect(receiver.requests.map((r) => r.status)).toEqual([503]);
    // The endpoint's job now waits ten minutes for that retry; a write elsewhere makes it due at once.
    await api("POST", "/remember", { key, body: { namespace_id: working.id, content: "Accepted." } });
    await deliver();
    expect(receiver.messages.map((m) => m.data.namespace_id)).toEqual([working.id]);
    // The refused one waits for its retry: it was not tried again.
    expect(receiver.requests.map((r) => r.status)).toEqual([503, 200]);
  });

  test("an event written while its endpoint's job runs goes in the next run, due as if none ran", async () => {
    const { key } = await createTenant("Run Again");
    const ns = await createNamespace(key);
    await addEndpoint(key, { namespace_ids: [ns.id] });
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "Before the run." } });
    await new Promise((resolve) => setTimeout(resolve, WEBHOOK_GATHER_MS));
    // On PostgreSQL another test file's transaction may be open: the run would hold the event back and wait.
    await settled();
    const job = await claimJob([WEBHOOK_DELIVERY_JOB]);
    expect(job).not.toBeNull();
    // The run has read what is pending; then another write commits before it ends.
    let writtenDuringRun: { before: number; after: number } | undefined;
    const runner: JobRunner = async (claimed) => {
      await webhookJobRunners[WEBHOOK_DELIVERY_JOB](claimed);
      const before = Date.now();
      await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "During the run." } });
      writtenDuringRun = { before, after: Date.now() };
    };
    await runClaimedJob(job!, runner);
    expect(writtenDuringRun).toBeDefined();
    expect(receiver.messages).toHaveLength(1);
    // The job was asked for again while it ran: queued again, due the gathering window after that write (as a
    // write with no job running queues it), and the next run delivers the second event.
    const prisma = await db();
    const queued = await prisma.job.findFirst({ where: { key: job!.key, status: "queued" } });
    expect(queued).toMatchObject({ id: job!.id, runAgain: false, attempts: 0 });
    expect(queued!.runAfter.getTime()).toBeGreaterThanOrEqual(writtenDuringRun!.before + WEBHOOK_GATHER_MS - 5);
    expect(queued!.runAfter.getTime()).toBeLessThanOrEqual(writtenDuringRun!.after + WEBHOOK_GATHER_MS + 5);
    await deliver();
    expect(receiver.messages.map((m) => m.data.data.memory_id)).toHaveLength(2);
    expect(await prisma.job.count({ where: { key: job!.key, status: { in: ["queued", "running"] } } })).toBe(0);
  });

  test("with a worker that polls once a minute, a stream of writes is delivered by wake-ups alone", async () => {
    const { key } = await createTenant("Wake Ups");
    const ns = await createNamespace(key);
    await addEndpoint(key, { namespace_ids: [ns.id] });
    // Each delivery takes a while: writes come during the job's runs as well as between them.
    receiver.delayMs = 100;
    const stopWorker = startJobWorker(webhookJobRunners, { pollIntervalMs: 60_000 });
    try {
      for (let i = 0; i < 12; i++) {
        await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: `Write ${i}.` } });
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
      await settledThenDelivered(() =>
        expect(receiver.messages.filter((m) => m.data.namespace_id === ns.id)).toHaveLength(12),
      );
    } finally {
      await stopWorker();
    }
  });

  test("a write open past its delivery's due time is delivered once it commits, and the writes after it", async () => {
    const { org, key } = await createTenant("Slow Commit");
    const ns = await createNamespace(key);
    await addEndpoint(key, { namespace_ids: [ns.id] });
    const stopWorker = startJobWorker(webhookJobRunners, { pollIntervalMs: 60_000 });
    try {
      const prisma = await db();
      // Open past the gathering window: the wake-up timed for it would find nothing to claim yet.
      await prisma.$transaction(async (tx) => {
        await recordEvents(tx, org.id, [
          { type: "namespace.updated", namespaceId: ns.id, data: { namespace_id: ns.id } },
        ]);
        await new Promise((resolve) => setTimeout(resolve, WEBHOOK_GATHER_MS * 3));
      });
      // A write now finds the job queued to run no later, and leaves the waking to the one before.
      await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "After the slow one." } });
      await settledThenDelivered(() =>
        expect(receiver.messages.filter((m) => m.data.namespace_id === ns.id)).toHaveLength(2),
      );
    } finally {
      await stopWorker();
    }
  });

  test("a run ending to wait for a retry, asked for again as it ends, runs again when due, not at a poll", async () => {
    const { key, working } = await oneNamespaceRefused("Woken When Due");
    await new Promise((resolve) => setTimeout(resolve, WEBHOOK_GATHER_MS));
    await settled();
    const job = await claimJob([WEBHOOK_DELIVERY_JOB]);
    expect(job).not.toBeNull();
    // A worker that looks for due jobs once a minute: within the test, only a wake-up starts it.
    const stopWorker = startJobWorker(webhookJobRunners, { pollIntervalMs: 60_000 });
    try {
      // The run ends waiting ten minutes for the refused event's retry; a write elsewhere commits as it ends.
      let endedWith: unknown;
      await runClaimedJob(job!, async (claimed) => {
        try {
          await webhookJobRunners[WEBHOOK_DELIVERY_JOB](claimed);
        } catch (error) {
          endedWith = error;
          await api("POST", "/remember", { key, body: { namespace_id: working.id, content: "Accepted." } });
          throw error;
        }
      });
      expect(endedWith).toBeInstanceOf(RetryLaterError);
      await settledThenDelivered(
        () => expect(receiver.messages.filter((m) => m.data.namespace_id === working.id)).toHaveLength(1),
        3_000,
      );
    } finally {
      await stopWorker();
    }
    expect(receiver.requests.filter((r) => r.status === 503)).toHaveLength(1);
  });

  test("a claim clears a request for another run left from before: one during this run gathers", async () => {
    const key = `stale-run-again-${Date.now()}`;
    await enqueueJob({ kind: "stale_run_again_test", key });
    const prisma = await db();
    // As a failed run's backoff leaves it: queued, still marked to run again.
    await prisma.job.updateMany({ where: { key }, data: { runAgain: true } });
    const job = await claimJob(["stale_run_again_test"]);
    expect(await prisma.job.findFirst({ where: { id: job!.id } })).toMatchObject({
      status: "running",
      runAgain: false,
    });
    // Asked for again while it runs, due in the gathering window: that is when it runs again, not at once.
    const asked = Date.now();
    await enqueueJob({
      kind: "stale_run_again_test",
      key,
      runAgain: true,
      runAfter: new Date(asked + WEBHOOK_GATHER_MS),
    });
    const requested = await prisma.job.findFirstOrThrow({ where: { id: job!.id } });
    expect(requested.runAgain).toBe(true);
    expect(requested.runAfter.getTime()).toBe(asked + WEBHOOK_GATHER_MS);
    await prisma.job.delete({ where: { id: job!.id } });
  });

  test("a rotated secret signs beside the old one for the overlap; a redirect is not followed", async () => {
    const { key } = await createTenant("Rotation");
    const ns = await createNamespace(key);
    const endpoint = await addEndpoint(key, { namespace_ids: [ns.id] });
    const rotated = await api("POST", `/webhooks/${endpoint.id}/rotate-secret`, { key, body: { overlap_hours: 1 } });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.data.secret as string;
    expect(newSecret).not.toBe(endpoint.secret);
    expect(rotated.body.data.endpoint.previous_secret_expires_at).not.toBeNull();
    // A receiver that knows only the old secret, then only the new one: both verify.
    receiver.secrets.splice(0, receiver.secrets.length, endpoint.secret);
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "During the overlap." } });
    await deliver();
    receiver.secrets.splice(0, receiver.secrets.length, newSecret);
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: "Still during it." } });
    await deliver();
    expect(receiver.messages.map((m) => m.signatures)).toEqual([2, 2]);
    // Rotated without overlap, the old secret no longer verifies.
    const again = await api("POST", `/webhooks/${endpoint.id}/rotate-secret`, { key, body: { overlap_hours: 0 } });
    receiver.secrets.splice(0, receiver.secrets.length, newSecret);
    const ping = await api("POST", `/webhooks/${endpoint.id}/test`, { key });
    expect(ping.body.data).toMatchObject({ delivered: false, response_status: 401 });
    receiver.secrets.push(again.body.data.secret);
    const ping2 = await api("POST", `/webhooks/${endpoint.id}/test`, { key });
    expect(ping2.body.data).toMatchObject({ delivered: true, response_status: 200, error: null });

    // A redirect (here to the metadata address) is an answer, never followed.
    receiver.answer = 302;
    const redirected = await api("POST", `/webhooks/${endpoint.id}/test`, { key });
    expect(redirected.body.data).toMatchObject({ delivered: false, response_status: 302 });
    expect(redirected.body.data.error).toMatch(/redirects are not followed/);
  });
});
