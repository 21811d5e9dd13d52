// The memories the console's entity page lists (lib/memory/entities/entity-memories.ts): those that mention the
// entity, latest event first, within the reader's scopes; another organization's entity, or one only hidden
// memories name, is not found.
import { describe, expect, test } from "vitest";
import { authenticateApiKey } from "@/lib/auth/api-keys/authenticate-api-key";
import { NotFoundError } from "@/lib/errors";
import { entityMemories } from "@/lib/memory/entities/entity-memories";
import { api } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";

async function remember(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/remember", { key, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

async function entityId(key: string, namespaceId: string, name: string) {
  const response = await api("GET", `/entities?namespace_id=${namespaceId}&q=${encodeURIComponent(name)}`, { key });
  expect(response.status).toBe(200);
  return (response.body.data as { id: string; name: string }[]).find((entity) => entity.name === name)!.id;
}

describe("an entity's memories", () => {
  test("latest event first, with the mentions of each; only what the reader's scopes reach", async () => {
    const { org, key } = await createTenant();
    const ns = await createNamespace(key);
    await remember(key, {
      namespace_id: ns.id,
      memories: [
        { content: "Dana flew to Lisbon.", occurred_at: "2023-05-01T10:00:00Z" },
        { content: "Dana met Dana's sister in Porto.", occurred_at: "2023-06-01T10:00:00Z" },
        { content: "Dana signed a contract.", occurred_at: "2023-04-01T10:00:00Z", scopes: { team: "legal" } },
        { content: "Priya moved to Tokyo.", occurred_at: "2023-07-01T10:00:00Z" },
      ],
    });
    const dana = await entityId(key, ns.id, "Dana");
    const owner = await authenticateApiKey(`Bearer ${key}`);

    const all = await entityMemories(owner, dana);
    expect(all.namespaceId).toBe(ns.id);
    expect(all.total).toBe(3);
    expect(all.memories.map((m) => m.content)).toEqual([
      "Dana met Dana's sister in Porto.",
      "Dana flew to Lisbon.",
      "Dana signed a contract.",
    ]);
    expect(all.memories[0].mentions).toBe(2);
    expect((await entityMemories(owner, dana, { limit: 1 })).memories).toHaveLength(1);

    // A key with other scopes sees none of the legal team's memory; with them, only it.
    const sales = await authenticateApiKey(
      `Bearer ${(await createKey(org.id, { scopes: { team: "sales" }, namespaceIds: [ns.id] })).secret}`,
    );
    await expect(entityMemories(sales, dana)).rejects.toBeInstanceOf(NotFoundError);
    const legal = await authenticateApiKey(
      `Bearer ${(await createKey(org.id, { scopes: { team: "legal" }, namespaceIds: [ns.id] })).secret}`,
    );
    const legalView = await entityMemories(legal, dana);
    expect(legalView.total).toBe(1);
    expect(legalView.memories.map((m) => m.content)).toEqual(["Dana signed a contract."]);
  });

  test("another organization's entity, or a namespace the key is not granted, is not found", async () => {
    const { org, key } = await createTenant();
    const ns = await createNamespace(key);
    await remember(key, { namespace_id: ns.id, content: "Dana flew to Lisbon." });
    const dana = await entityId(key, ns.id, "Dana");

    const stranger = await authenticateApiKey(`Bearer ${(await createTenant("Stranger")).key}`);
    await expect(entityMemories(stranger, dana)).rejects.toBeInstanceOf(NotFoundError);
    const elsewhere = await createNamespace(key);
    const ungranted = await authenticateApiKey(
      `Bearer ${(await createKey(org.id, { namespaceIds: [elsewhere.id] })).secret}`,
    );
    await expect(entityMemories(ungranted, dana)).rejects.toBeInstanceOf(NotFoundError);
    await expect(entityMemories(ungranted, "ent_unknown")).rejects.toBeInstanceOf(NotFoundError);
  });
});
