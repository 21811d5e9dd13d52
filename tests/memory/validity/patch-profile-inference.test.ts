// Validity through PATCH, the offline inference and the identity profile (issue 52).
import { describe, expect, test } from "vitest";
import { api } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";

interface Memory {
  id: string;
  invalid_at: string | null;
  superseded_by: string | null;
  supersedes: string[];
  supersession: { kind: string; similarity?: number } | null;
  fact_key: string | null;
  valid_at: string;
}

async function remember(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/remember", { key, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as Memory;
}

const get = async (key: string, id: string) => (await api("GET", `/memories/${id}`, { key })).body.data as Memory;

async function recall(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/recall", { key, body: { top_k: 5, min_score: 0, ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as { memory_id: string; invalid_at: string | null; superseded_by: string | null }[];
}

describe("offline inference", () => {
  test("a statement saying it changed replaces the identity's like one; demoted, undone by PATCH", async () => {
    const { key } = await createTenant("Inference");
    const ns = await createNamespace(key);
    const dana = { namespace_id: ns.id, identity_id: "dana" };
    const porto = await remember(key, {
      ...dana,
      content: "I live in Porto, near the river.",
      occurred_at: "2024-03-10",
    });
    // Another identity's and another scope's like statements are never touched.
    const sam = await remember(key, { ...dana, identity_id: "sam", content: "I live in Porto, near the river." });
    const scoped = await remember(key, {
      ...dana,
      content: "I live in Porto, by the river.",
      scopes: { team: "red" },
      occurred_at: "2024-03-10",
    });
    // A statement that does not say anything changed replaces nothing.
    await remember(key, { ...dana, content: "I like the river in Porto.", occurred_at: "2025-01-01" });
    expect((await get(key, porto.id)).invalid_at).toBeNull();
    const lisbon = await remember(key, {
      ...dana,
      content: "I moved to Lisbon last month, I live there now.",
      occurred_at: "2026-02-14",
    });
    const closed = await get(key, porto.id);
    expect(closed).toMatchObject({ superseded_by: lisbon.id, invalid_at: "2026-02-14T00:00:00.000Z" });
    expect(closed.supersession?.kind).toBe("inferred");
    expect(closed.supersession?.similarity).toBeGreaterThan(0);
    expect(lisbon.supersedes).toEqual([porto.id]);
    expect((await get(key, sam.id)).invalid_at).toBeNull();
    expect((await get(key, scoped.id)).invalid_at).toBeNull();
    // Demoted, not hidden: right below the memory that replaced it.
    const ids = (await recall(key, { ...dana, query: "Porto river" })).map((m) => m.memory_id);
    expect(ids.indexOf(lisbon.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(porto.id)).toBe(ids.indexOf(lisbon.id) + 1);
    // Undone.
    const reopened = await api("PATCH", `/memories/${porto.id}`, { key, body: { invalid_at: null } });
    expect(reopened.status).toBe(200);
    expect(reopened.body.data).toMatchObject({ invalid_at: null, superseded_by: null, supersession: null });
    expect((await get(key, lisbon.id)).supersedes).toEqual([]);
  });
});

describe("PATCH", () => {
  test("invalid_at closes a memory (recall leaves it out), null reopens it; fact_key places it", async () => {
    const { key } = await createTenant("Patch Validity");
    const ns = await createNamespace(key);
    const plan = await remember(key, {
      namespace_id: ns.id,
      content: "The team is on the Basic plan.",
      occurred_at: "2024-01-01",
    });
    const closed = await api("PATCH", `/memories/${plan.id}`, { key, body: { invalid_at: "2026-01-01" } });
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({
      invalid_at: "2026-01-01T00:00:00.000Z",
      supersession: { kind: "caller" },
    });
    expect((await recall(key, { namespace_id: ns.id, query: "Basic plan" })).map((m) => m.memory_id)).not.toContain(
      plan.id,
    );
    const asOf = await recall(key, { namespace_id: ns.id, query: "Basic plan", as_of: "2025-06-01" });
    expect(asOf.map((m) => m.memory_id)).toContain(plan.id);
    await api("PATCH", `/memories/${plan.id}`, { key, body: { invalid_at: null, valid_at: "2023-06-01" } });
    const held = await get(key, plan.id);
    expect(held).toMatchObject({ invalid_at: null, valid_at: "2023-06-01T00:00:00.000Z", version: 1 });
    // A newer memory given the same fact_key later takes the slot.
    await api("PATCH", `/memories/${plan.id}`, { key, body: { fact_key: "plan" } });
    const business = await remember(key, { namespace_id: ns.id, content: "Business plan.", fact_key: "plan" });
    expect(await get(key, plan.id)).toMatchObject({ superseded_by: business.id, fact_key: "plan" });
    const cleared = await api("PATCH", `/memories/${plan.id}`, { key, body: { fact_key: null } });
    expect(cleared.body.data.fact_key).toBeNull();
  });

  test("bad validity input is a 400 in the envelope and changes nothing", async () => {
    const { key } = await createTenant("Bad Validity");
    const ns = await createNamespace(key);
    const memory = await remember(key, { namespace_id: ns.id, content: "Something." });
    for (const body of [{ invalid_at: "yesterday" }, { fact_key: "" }, { valid_at: 5 }]) {
      const response = await api("PATCH", `/memories/${memory.id}`, { key, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe("BAD_REQUEST");
    }
    for (const body of [{ as_of: "soon" }, { include_superseded: "yes" }]) {
      const response = await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "x", ...body } });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const empty = await api("POST", "/remember", {
      key,
      body: { namespace_id: ns.id, content: "Other.", supersedes: [] },
    });
    expect(empty.status).toBe(400);
    expect(await get(key, memory.id)).toMatchObject({ invalid_at: null, version: 1 });
  });
});

describe("profile", () => {
  test("current facts with since when, the timeline of changes, as_of, within the key's scopes", async () => {
    const { key, org } = await createTenant("Profiles");
    const ns = await createNamespace(key);
    const slot = { namespace_id: ns.id, identity_id: "dana", fact_key: "home_city" };
    const porto = await remember(key, { ...slot, content: "Dana lives in Porto.", valid_at: "2024-03-10" });
    const lisbon = await remember(key, { ...slot, content: "Dana lives in Lisbon.", valid_at: "2026-02-14" });
    await remember(key, { ...slot, fact_key: "employer", content: "Dana works at Acme.", scopes: { team: "red" } });
    const path = `/identities/dana/profile?namespace_id=${ns.id}`;
    const profile = await api("GET", path, { key });
    expect(profile.status).toBe(200);
    const facts = profile.body.data.facts as { memory_id: string; since: string; fact_key: string }[];
    expect(facts.map((f) => f.memory_id)).toContain(lisbon.id);
    expect(facts.map((f) => f.memory_id)).not.toContain(porto.id);
    expect(facts.find((f) => f.memory_id === lisbon.id)).toMatchObject({
      since: "2026-02-14T00:00:00.000Z",
      fact_key: "home_city",
      supersedes: [porto.id],
    });
    expect(profile.body.data.changes[0]).toMatchObject({
      at: "2026-02-14T00:00:00.000Z",
      replaced: { memory_id: porto.id },
      by: { memory_id: lisbon.id },
      supersession: { kind: "fact_key" },
    });
    const then = await api("GET", `${path}&as_of=2025-01-01`, { key });
    expect(then.body.data.facts.map((f: { memory_id: string }) => f.memory_id)).toContain(porto.id);
    expect(then.body.data.changes).toEqual([]);
    // A key with other scopes sees none of the red team's facts; a namespace it is not granted is 404.
    const blue = await createKey(org.id, { name: "blue", scopes: { team: "blue" }, namespaceIds: [ns.id] });
    const seen = await api("GET", path, { key: blue.secret });
    expect(seen.status).toBe(200);
    expect(JSON.stringify(seen.body.data)).not.toContain("Acme");
    const elsewhere = await createNamespace(key);
    const stranger = await createKey(org.id, { name: "other", namespaceIds: [elsewhere.id] });
    expect((await api("GET", path, { key: stranger.secret })).status).toBe(404);
    expect((await api("GET", `/identities/dana/profile`, { key })).status).toBe(400);
  });
});
