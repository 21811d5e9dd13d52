// Each provider end to end, through the real SDK client against a loopback server speaking the provider's
// API: connect → complete → first sync → the documents are recallable with their source_url; change one,
// delete one, add one → the next sync reflects exactly that; a 429 is waited out; an expired token is
// refreshed; a refused refresh asks to reconnect; deleting revokes the token and forgets the documents.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { db } from "@/lib/db";
import type { ProviderId } from "@/lib/integrations/provider";
import { api } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";
import { connect, forgetFake, memoriesOf, runSyncs, useFake } from "../helpers/integrations";
import type { FakeContent, FakeProvider } from "../helpers/providers/oauth-server";
import { startGithubFake } from "../helpers/providers/github";
import { startGoogleDriveFake } from "../helpers/providers/google-drive";
import { startNotionFake } from "../helpers/providers/notion";
import { startSlackFake } from "../helpers/providers/slack";

type Fake = FakeProvider & { content: FakeContent };

const fakes: Record<ProviderId, () => Promise<Fake>> = {
  github: () => startGithubFake(),
  notion: () => startNotionFake(),
  google_drive: () => startGoogleDriveFake(),
  slack: () => startSlackFake(),
};

/** Everything a test saw leave the gateway: response bodies, log lines, audit entries. */
const seen: string[] = [];

async function call(...args: Parameters<typeof api>) {
  const response = await api(...args);
  seen.push(JSON.stringify(response.body));
  return response;
}

async function recallTop(key: string, namespaceId: string, query: string) {
  const response = await call("POST", "/recall", { key, body: { namespace_id: namespaceId, query, top_k: 1 } });
  expect(response.status).toBe(200);
  return response.body.data[0] as { memory_id: string; content: string; metadata: Record<string, unknown> };
}

const logSpies: ReturnType<typeof vi.spyOn>[] = [];
beforeAll(() => {
  for (const method of ["log", "error", "warn", "info"] as const) {
    const original = console[method].bind(console);
    logSpies.push(
      vi.spyOn(console, method).mockImplementation((...parts: unknown[]) => {
        seen.push(
          parts.map((part) => (part instanceof Error ? `${part.message} ${part.stack}` : String(part))).join(" "),
        );
        original(...parts);
      }),
    );
  }
});
afterAll(() => {
  for (const spy of logSpies) spy.mockRestore();
});

describe.each(Object.keys(fakes) as ProviderId[])("%s", (provider) => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await fakes[provider]();
    useFake(fake);
  });
  afterAll(async () => {
    forgetFake(provider);
    await fake?.stop();
  });

  test("connect, sync, change, delete, add, rate limit, refresh, disconnect", async () => {
    const { org, key } = await createTenant(`Integration ${provider}`);
    const namespace = await createNamespace(key);
    const connection = await connect(key, fake, {
      namespace_id: namespace.id,
      options: fake.content.connectOptions,
    });
    expect(connection.status).toBe("active");

    // The first sync: one memory per document, with where it came from.
    expect(await runSyncs()).toBe(1);
    const synced = await call("GET", `/integrations/connections/${connection.id}`, { key });
    expect(synced.body.data).toMatchObject({ status: "active", documents_synced: fake.content.documents().length });
    expect(synced.body.data.last_sync_at).not.toBeNull();
    let memories = await memoriesOf(key, namespace.id);
    expect(memories.map((m) => m.metadata.source_url).sort()).toEqual(
      fake.content
        .documents()
        .map((d) => d.url)
        .sort(),
    );
    for (const memory of memories) {
      expect(memory.metadata).toMatchObject({ source: provider, connection_id: connection.id });
      expect(typeof memory.metadata.source_id).toBe("string");
      expect(typeof memory.metadata.title).toBe("string");
      expect(Number.isNaN(Date.parse(String(memory.metadata.updated_at)))).toBe(false);
    }
    for (const document of fake.content.documents()) {
      const top = await recallTop(
        key,
        namespace.id,
        document.text.split("\n").find((line) => line.trim().length > 20)!,
      );
      expect(top.metadata.source_url).toBe(document.url);
    }

    // Change one, delete one, add one: the next sync does exactly that.
    const before = new Map(memories.map((m) => [m.metadata.source_url, m]));
    const changed = fake.content.changeOne();
    const deleted = fake.content.deleteOne();
    const added = fake.content.addOne();
    const sync = await call("POST", `/integrations/connections/${connection.id}/sync`, { key });
    expect(sync.status).toBe(200);
    const again = await call("POST", `/integrations/connections/${connection.id}/sync`, { key });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already queued/);
    await runSyncs();
    memories = await memoriesOf(key, namespace.id);
    const after = new Map(memories.map((m) => [m.metadata.source_url, m]));
    expect([...after.keys()].sort()).toEqual(
      fake.content
        .documents()
        .map((d) => d.url)
        .sort(),
    );
    expect(after.has(deleted.url)).toBe(false);
    expect(after.get(changed.url)!.id).toBe(before.get(changed.url)!.id);
    expect(after.get(changed.url)!.content).toContain(changed.phrase);
    expect(after.get(added.url)!.content).toContain(added.phrase);
    for (const [url, memory] of after) {
      if (url === changed.url || url === added.url) continue;
      // Unchanged: not embedded or written again.
      expect(memory.updated_at).toBe(before.get(url)!.updated_at);
    }
    expect((await recallTop(key, namespace.id, changed.phrase)).metadata.source_url).toBe(changed.url);
    expect((await recallTop(key, namespace.id, added.phrase)).metadata.source_url).toBe(added.url);

    // A 429 is waited out (Retry-After), and the sync completes.
    fake.rateLimitNext(1, 1);
    const requestsBefore = fake.apiRequests.length;
    await call("POST", `/integrations/connections/${connection.id}/sync`, { key });
    await runSyncs();
    expect(fake.apiRequests.length).toBeGreaterThan(requestsBefore);
    let state = await call("GET", `/integrations/connections/${connection.id}`, { key });
    expect(state.body.data).toMatchObject({ status: "active", last_error: null });
    expect((await memoriesOf(key, namespace.id)).length).toBe(fake.content.documents().length);

    // An expired access token is refreshed once, and the sync goes on.
    fake.expireAccessTokens();
    const refreshesBefore = fake.tokenRequests.filter((grant) => grant === "refresh_token").length;
    await call("POST", `/integrations/connections/${connection.id}/sync`, { key });
    await runSyncs();
    expect(fake.tokenRequests.filter((grant) => grant === "refresh_token").length).toBe(refreshesBefore + 1);
    state = await call("GET", `/integrations/connections/${connection.id}`, { key });
    expect(state.body.data).toMatchObject({ status: "active", last_error: null });

    // A refused refresh: the connection says to reconnect, and its memories stay.
    fake.expireAccessTokens();
    fake.refuseRefreshTokens();
    await call("POST", `/integrations/connections/${connection.id}/sync`, { key });
    await runSyncs();
    state = await call("GET", `/integrations/connections/${connection.id}`, { key });
    expect(state.body.data.status).toBe("error");
    expect(state.body.data.last_error).toMatch(/reconnect/);
    expect((await memoriesOf(key, namespace.id)).length).toBe(fake.content.documents().length);

    // Reconnecting authorizes the same connection again: its memories stay, the next sync changes nothing.
    const idsBeforeReconnect = (await memoriesOf(key, namespace.id)).map((m) => m.id).sort();
    const reconnect = await call("POST", `/integrations/connections/${connection.id}/reconnect`, { key, body: {} });
    expect(reconnect.status).toBe(200);
    const approved = await fake.approve(reconnect.body.data.authorization_url);
    const completed = await call("POST", `/integrations/connections/${connection.id}/complete`, {
      key,
      body: { code: approved.redirect.searchParams.get("code"), state: approved.redirect.searchParams.get("state") },
    });
    expect(completed.body.data).toMatchObject({ status: "active", last_error: null });
    await runSyncs();
    state = await call("GET", `/integrations/connections/${connection.id}`, { key });
    expect(state.body.data).toMatchObject({ status: "active", last_error: null });
    expect((await memoriesOf(key, namespace.id)).map((m) => m.id).sort()).toEqual(idsBeforeReconnect);

    // Disconnect: the memories it brought go, and the counts say so.
    const count = fake.content.documents().length;
    const removed = await call("DELETE", `/integrations/connections/${connection.id}`, { key });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ deleted: true, memories_deleted: count, memories_kept: 0 });
    expect(await memoriesOf(key, namespace.id)).toEqual([]);
    expect((await call("GET", `/integrations/connections/${connection.id}`, { key })).status).toBe(404);
    // A deletion request like a forget: its erasure receipt counts the memories that went.
    const receipts = await call("GET", `/erasures?namespace_id=${namespace.id}`, { key });
    expect(receipts.body.data).toEqual([
      expect.objectContaining({
        kind: "integration.delete",
        selector: { connection_id: connection.id },
        memories_deleted: count,
      }),
    ]);

    // No token in any response, log line or audit entry.
    const prisma = await db();
    const audit = await prisma.auditLog.findMany({ where: { orgId: org.id } });
    seen.push(JSON.stringify(audit));
    const tokenPattern = new RegExp(`${provider}-(at|rt)-[0-9a-f]{24}`);
    expect(seen.join("\n")).not.toMatch(tokenPattern);
    expect(audit.map((entry) => entry.action)).toEqual(
      expect.arrayContaining([
        "integration.start",
        "integration.connect",
        "integration.sync",
        "integration.reconnect",
        "integration.delete",
      ]),
    );
  });

  test("disconnecting with keep_memories revokes the token and keeps what it brought", async () => {
    const { key } = await createTenant(`Integration keep ${provider}`);
    const namespace = await createNamespace(key);
    const connection = await connect(key, fake, { namespace_id: namespace.id, options: fake.content.connectOptions });
    await runSyncs();
    const count = (await memoriesOf(key, namespace.id)).length;
    expect(count).toBe(fake.content.documents().length);
    const revokedBefore = fake.revokedTokens.length;
    const removed = await call("DELETE", `/integrations/connections/${connection.id}?keep_memories=true`, { key });
    expect(removed.body.data).toEqual({
      deleted: true,
      memories_deleted: 0,
      memories_kept: count,
      token_revoked: true,
    });
    expect(fake.revokedTokens.length).toBe(revokedBefore + 1);
    expect((await memoriesOf(key, namespace.id)).length).toBe(count);
  });
});
