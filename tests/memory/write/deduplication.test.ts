import { describe, expect, test } from "vitest";
import { api } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";
import { storedCounts } from "../../helpers/memory";

const FACT = "The office wifi password is written on the back of the router.";

async function tenantWithNamespace() {
  const tenant = await createTenant();
  const ns = await createNamespace(tenant.key);
  return { ...tenant, ns };
}

async function rememberOne(key: string, body: Record<string, unknown>) {
  return api("POST", "/remember", { key, body });
}

describe("remembering content identical to an existing memory", () => {
  test("returns the existing memory, deduplicated: true, and stores nothing new", async () => {
    const { key, ns } = await tenantWithNamespace();
    const first = await rememberOne(key, { namespace_id: ns.id, content: FACT, identity_id: "u1" });
    expect(first.status).toBe(201);
    expect(first.body.data.deduplicated).toBe(false);
    const again = await rememberOne(key, { namespace_id: ns.id, content: FACT, identity_id: "u1" });
    expect(again.body.data).toMatchObject({ id: first.body.data.id, deduplicated: true, content: FACT });
    expect((await storedCounts(ns.id)).memories).toBe(1);
  });

  test("a different identity, other scopes or another namespace is not a duplicate", async () => {
    const { key, org, ns } = await tenantWithNamespace();
    const other = await createNamespace(key);
    await rememberOne(key, { namespace_id: ns.id, content: FACT, identity_id: "u1" });
    const cases = [
      { namespace_id: ns.id, content: FACT, identity_id: "u2" },
      { namespace_id: ns.id, content: FACT },
      { namespace_id: ns.id, content: FACT, identity_id: "u1", scopes: { team: "sales" } },
      { namespace_id: other.id, content: FACT, identity_id: "u1" },
      { namespace_id: ns.id, content: `${FACT} `, identity_id: "u1" },
    ];
    for (const body of cases) {
      const response = await rememberOne(key, body);
      expect(response.status).toBe(201);
      expect(response.body.data.deduplicated).toBe(false);
    }
    expect((await storedCounts(ns.id)).memories).toBe(5);
    // A key with scopes remembers with them: the same words under its scopes repeat its memory only.
    const scoped = (await createKey(org.id, { scopes: { team: "sales" }, namespaceIds: [ns.id] })).secret;
    const scopedAgain = await rememberOne(scoped, { namespace_id: ns.id, content: FACT, identity_id: "u1" });
    expect(scopedAgain.body.data).toMatchObject({ deduplicated: true, scopes: { team: "sales" } });
  });

  test("allow_duplicate: true stores it again", async () => {
    const { key, ns } = await tenantWithNamespace();
    const first = await rememberOne(key, { namespace_id: ns.id, content: FACT });
    const second = await rememberOne(key, { namespace_id: ns.id, content: FACT, allow_duplicate: true });
    expect(second.status).toBe(201);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(second.body.data.deduplicated).toBe(false);
    expect((await storedCounts(ns.id)).memories).toBe(2);
    expect((await rememberOne(key, { namespace_id: ns.id, content: FACT, allow_duplicate: "yes" })).status).toBe(400);
  });

  test("in a batch, a repeat of an earlier item is stored once and both answers name that memory", async () => {
    const { key, ns } = await tenantWithNamespace();
    const response = await rememberOne(key, {
      namespace_id: ns.id,
      memories: [{ content: FACT }, { content: "Something else entirely." }, { content: FACT }],
    });
    expect(response.status).toBe(201);
    const [first, other, repeat] = response.body.data;
    expect(first.deduplicated).toBe(false);
    expect(other.deduplicated).toBe(false);
    expect(repeat).toMatchObject({ id: first.id, deduplicated: true });
    expect((await storedCounts(ns.id)).memories).toBe(2);
  });

  test("a memory set to expire is neither deduplicated nor returned for a request that keeps its own", async () => {
    const { key, ns } = await tenantWithNamespace();
    const expiring = await rememberOne(key, { namespace_id: ns.id, content: FACT, ttl_seconds: 60 });
    const lasting = await rememberOne(key, { namespace_id: ns.id, content: FACT });
    expect(lasting.body.data).toMatchObject({ deduplicated: false, expires_at: null });
    const expiringAgain = await rememberOne(key, { namespace_id: ns.id, content: FACT, ttl_seconds: 60 });
    expect(expiringAgain.body.data.deduplicated).toBe(false);
    expect(expiringAgain.body.data.expires_at).not.toBeNull();
    expect(new Set([expiring, lasting, expiringAgain].map((r) => r.body.data.id)).size).toBe(3);
  });

  test("a conversation turn with the same words is not the existing memory of a plain remember", async () => {
    const { key, ns } = await tenantWithNamespace();
    await rememberOne(key, { namespace_id: ns.id, session_id: "s1", messages: [{ role: "user", content: FACT }] });
    const plain = await rememberOne(key, { namespace_id: ns.id, content: FACT });
    expect(plain.body.data).toMatchObject({ deduplicated: false, session_id: null });
  });

  test("a conversation's turns are never deduplicated", async () => {
    const { key, ns } = await tenantWithNamespace();
    const messages = [
      { role: "user", content: "ok" },
      { role: "assistant", content: "ok" },
    ];
    const response = await rememberOne(key, { namespace_id: ns.id, session_id: "s1", messages });
    expect(response.status).toBe(201);
    expect(new Set(response.body.data.map((m: { id: string }) => m.id)).size).toBe(2);
    expect(response.body.data[0].deduplicated).toBeUndefined();
  });
});
