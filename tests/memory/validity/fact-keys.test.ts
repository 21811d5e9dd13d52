// Supersession the caller names (issue 52): fact_key slots, supersedes, late statements, forgetting a
// replacement, and recall of what holds now, then, or all of it.
import { describe, expect, test } from "vitest";
import { api } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";

interface Memory {
  id: string;
  content: string;
  valid_at: string;
  invalid_at: string | null;
  superseded_by: string | null;
  supersedes: string[];
  supersession: { kind: string } | null;
  fact_key: string | null;
}

async function remember(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/remember", { key, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as Memory;
}

async function get(key: string, id: string) {
  const response = await api("GET", `/memories/${id}`, { key });
  expect(response.status).toBe(200);
  return response.body.data as Memory;
}

async function recallIds(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/recall", { key, body: { top_k: 5, ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.data as { memory_id: string; invalid_at: string | null }[]).map((m) => m.memory_id);
}

describe("fact_key", () => {
  test("a newer memory of the slot replaces the one that held; recall answers with it, as_of the old", async () => {
    const { key } = await createTenant("Fact Keys");
    const ns = await createNamespace(key);
    const slot = { namespace_id: ns.id, identity_id: "dana", fact_key: "home_city" };
    const porto = await remember(key, { ...slot, content: "Dana lives in Porto.", occurred_at: "2024-03-10" });
    expect(porto).toMatchObject({ valid_at: "2024-03-10T00:00:00.000Z", invalid_at: null, fact_key: "home_city" });
    const lisbon = await remember(key, { ...slot, content: "We moved to Lisbon!", occurred_at: "2026-02-14" });
    expect(lisbon).toMatchObject({ invalid_at: null, supersedes: [porto.id] });
    expect(await get(key, porto.id)).toMatchObject({
      invalid_at: "2026-02-14T00:00:00.000Z",
      superseded_by: lisbon.id,
      supersession: { kind: "fact_key" },
    });
    // The old statement is what the words match; the one that holds takes its place.
    const query = { namespace_id: ns.id, identity_id: "dana", query: "Porto" };
    expect(await recallIds(key, query)).toEqual([lisbon.id]);
    expect(await recallIds(key, { ...query, as_of: "2025-01-01" })).toEqual([porto.id]);
    expect(await recallIds(key, { ...query, include_superseded: true })).toContain(porto.id);
    // Another identity's slot of the same name is its own.
    const other = await remember(key, { ...slot, identity_id: "sam", content: "Sam lives in Porto." });
    expect(other.supersedes).toEqual([]);
    expect((await get(key, lisbon.id)).invalid_at).toBeNull();
  });

  test("writes to one slot at once leave one memory holding, the others closed in order of valid_at", async () => {
    const { key } = await createTenant("Slot Race");
    const ns = await createNamespace(key);
    const slot = { namespace_id: ns.id, identity_id: "dana", fact_key: "status" };
    const written = await Promise.all(
      [1, 2, 3, 4, 5].map((day) => remember(key, { ...slot, content: `Status ${day}.`, valid_at: `2026-01-0${day}` })),
    );
    const stored = await Promise.all(written.map((memory) => get(key, memory.id)));
    expect(stored.filter((memory) => memory.invalid_at === null).map((m) => m.content)).toEqual(["Status 5."]);
    for (const [i, memory] of stored.slice(0, 4).entries()) {
      expect(memory).toMatchObject({ superseded_by: stored[i + 1].id, invalid_at: stored[i + 1].valid_at });
    }
  });

  test("a statement that arrives late about an earlier time is stored as history", async () => {
    const { key } = await createTenant("Late Facts");
    const ns = await createNamespace(key);
    const slot = { namespace_id: ns.id, identity_id: "dana", fact_key: "employer" };
    const now = await remember(key, { ...slot, content: "Works at Acme.", valid_at: "2026-01-01" });
    const late = await remember(key, { ...slot, content: "Worked at Initech.", valid_at: "2024-01-01" });
    expect(late).toMatchObject({
      invalid_at: "2026-01-01T00:00:00.000Z",
      superseded_by: now.id,
      supersession: { kind: "fact_key" },
    });
    expect((await get(key, now.id)).invalid_at).toBeNull();
  });

  test("forgetting the memory that replaced another makes that one hold again", async () => {
    const { key } = await createTenant("Forget Restores");
    const ns = await createNamespace(key);
    const slot = { namespace_id: ns.id, identity_id: "dana", fact_key: "phone" };
    const first = await remember(key, { ...slot, content: "Phone 111.", valid_at: "2024-01-01" });
    const second = await remember(key, { ...slot, content: "Phone 222.", valid_at: "2025-01-01" });
    const third = await remember(key, { ...slot, content: "Phone 333.", valid_at: "2026-01-01" });
    expect((await api("POST", "/forget", { key, body: { namespace_id: ns.id, memory_ids: [second.id] } })).status).toBe(
      200,
    );
    // The chain closes over the gap: the first is now closed by the third.
    expect(await get(key, first.id)).toMatchObject({ superseded_by: third.id, invalid_at: "2026-01-01T00:00:00.000Z" });
    await api("POST", "/forget", { key, body: { namespace_id: ns.id, memory_ids: [third.id] } });
    expect(await get(key, first.id)).toMatchObject({ superseded_by: null, invalid_at: null, supersession: null });
  });
});

describe("supersedes", () => {
  test("closes the memories named; one the key cannot read is 404 and nothing is written", async () => {
    const { key, org } = await createTenant("Named");
    const ns = await createNamespace(key);
    const old = await remember(key, { namespace_id: ns.id, content: "The office is on floor 4." });
    const hidden = await remember(key, { namespace_id: ns.id, content: "Secret plan.", scopes: { team: "red" } });
    const blue = await createKey(org.id, { name: "blue", scopes: { team: "blue" }, namespaceIds: [ns.id] });
    const otherNs = await createNamespace(key);
    const elsewhere = await remember(key, { namespace_id: otherNs.id, content: "Elsewhere." });
    const refused = await api("POST", "/remember", {
      key,
      body: { namespace_id: ns.id, content: "Floor 12 now.", supersedes: [old.id, elsewhere.id] },
    });
    expect(refused.status).toBe(404);
    expect((await get(key, old.id)).invalid_at).toBeNull();
    const scoped = await api("POST", "/remember", {
      key: blue.secret,
      body: { namespace_id: ns.id, content: "Mine.", supersedes: [hidden.id] },
    });
    expect(scoped.status).toBe(404);
    expect((await get(key, hidden.id)).invalid_at).toBeNull();
    const replacement = await remember(key, { namespace_id: ns.id, content: "Floor 12 now.", supersedes: [old.id] });
    expect(await get(key, old.id)).toMatchObject({ superseded_by: replacement.id, supersession: { kind: "named" } });
    expect(await recallIds(key, { namespace_id: ns.id, query: "office floor" })).not.toContain(old.id);
  });

  test("fact_key and supersedes are refused with a conversation's messages", async () => {
    const { key } = await createTenant("Turns");
    const ns = await createNamespace(key);
    const response = await api("POST", "/remember", {
      key,
      body: { namespace_id: ns.id, session_id: "s1", messages: [{ role: "user", content: "hi" }], fact_key: "x" },
    });
    expect(response.status).toBe(400);
  });
});
