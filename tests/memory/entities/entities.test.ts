// Entities extracted offline at write time (lib/memory/entities): what is found in real sentences, how
// mentions merge within a namespace, and that every deletion path leaves no link or entity behind.
import { describe, expect, test } from "vitest";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { confirmedEntities, entityKey, extractEntities } from "@/lib/memory/entities/extract-entities";
import { sweepExpiredMemories } from "@/lib/memory/forget/expiry";
import { api } from "../../helpers/api";
import { createNamespace, createTenant } from "../../helpers/fixtures";

const MAY_8 = new Date("2023-05-08T13:56:00Z");

/** What a memory written alone links. */
const found = (text: string, speaker?: string, occurredAt = MAY_8) =>
  confirmedEntities([{ entities: extractEntities(text, { occurredAt, speaker }), scopes: {} }])[0].map(
    (e) => `${e.kind}:${e.name}`,
  );

describe("extraction, offline", () => {
  test("people, places, organizations and named things in real sentences", () => {
    expect(found("I lost my job at Acme Corp, so I'm starting a dance studio in Chicago next month.")).toEqual(
      expect.arrayContaining(["organization:Acme Corp", "place:Chicago"]),
    );
    expect(found("I'm reading a book by Amy Ellis Nutt and saw Ed Sheeran live.")).toEqual(
      expect.arrayContaining(["person:Amy Ellis Nutt", "person:Ed Sheeran"]),
    );
    expect(found("We hiked down the Grand Canyon, then drove to Yellowstone.")).toEqual(
      expect.arrayContaining(["place:Grand Canyon", "other:Yellowstone"]),
    );
    expect(found("Last year I volunteered with Habitat for Humanity.")).toContain("other:Habitat for Humanity");
    // Greetings, "I'm", months and weekdays are no names.
    expect(found("Hey Jon! I'm off on Monday, back in June.")).toEqual([
      "person:Jon",
      "date:8 May 2023",
      "date:June 2023",
    ]);
  });

  test("a common word opening a sentence is a name only where the same write names it elsewhere", () => {
    const confirmed = (...texts: string[]) =>
      confirmedEntities(
        texts.map((text) => ({ entities: extractEntities(text, { occurredAt: MAY_8 }), scopes: {} })),
      ).map((entities) => entities.map((e) => `${e.kind}:${e.name}`));
    expect(confirmed("Glad you liked it! Gonna go now. Check this out, Melanie. Congrats!")).toEqual([
      ["person:Melanie"],
    ]);
    expect(confirmed("Max chewed through the garden hose.")).toEqual([[]]);
    expect(confirmed("Max chewed through the garden hose.", "Priya adopted a beagle named Max.")).toEqual([
      ["other:Max"],
      expect.arrayContaining(["other:Max"]),
    ]);
    // Only by a memory that every reader of the first may read: its scopes hold the first's.
    const scoped = (aScopes: Record<string, string>, bScopes: Record<string, string>) =>
      confirmedEntities([
        { entities: extractEntities("Max chewed the hose.", { occurredAt: MAY_8 }), scopes: aScopes },
        { entities: extractEntities("A beagle named Max.", { occurredAt: MAY_8 }), scopes: bScopes },
      ])[0].map((e) => e.name);
    expect(scoped({ team: "a" }, { team: "b" })).toEqual([]);
    expect(scoped({ team: "a" }, {})).toEqual([]);
    expect(scoped({ team: "a" }, { team: "a", owner: "priya" })).toEqual(["Max"]);
    expect(scoped({}, { team: "b" })).toEqual(["Max"]);
    expect(found("Jolene came by. Boston was lovely. LGBTQ rights matter.")).toEqual(
      expect.arrayContaining(["person:Jolene", "place:Boston", "other:LGBTQ"]),
    );
    // "now" is when the memory happened, no date it names; a weekday's short form is no name.
    expect(found("I'm at the lake now, since last Fri.")).not.toContain("other:Fri");
    expect(found("I'm at the lake now.")).toEqual([]);
  });

  test("a conversation turn's speaker is one of its entities; a chat role is not", () => {
    expect(found("That sounds great!", "Caroline")).toEqual(["person:Caroline"]);
    expect(found("That sounds great!", "assistant")).toEqual([]);
  });

  test("what a text names does not depend on what the process read before, of any organization", () => {
    const probe = "Lunch at Okonkwo's Grill with Dana.";
    const first = found(probe);
    expect(first).toEqual(expect.arrayContaining(["person:Dana"]));
    // wink-nlp learns a word it lacks from any text: once it had met "Okonkwo's" whole, it read the probe's
    // "Okonkwo's Grill" as one name instead of "Okonkwo" and "Grill".
    found("We ate at Okonkwo's.");
    expect(found(probe)).toEqual(first);
    // Nor after many texts of words it lacks, each forgotten in turn.
    for (let i = 0; i < 50; i++) found(`Visited Qwzx${i}'s. Then Qwzx${i}'s place.`);
    expect(found(probe)).toEqual(first);
    // An organization's phrases' tags, kept for its next texts, find the same.
    const written = { occurredAt: MAY_8, orgId: "org_entities_test" };
    const alone = extractEntities(probe, { occurredAt: MAY_8 });
    expect(extractEntities(probe, written)).toEqual(alone);
    expect(extractEntities(probe, written)).toEqual(alone);
  });

  test("possessives, case and quotes share one key", () => {
    expect(entityKey("Mel's")).toBe("mel");
    expect(entityKey("MEL’S")).toBe("mel");
    expect(entityKey("the Grand  Canyon")).toBe("grand canyon");
    const mentions = extractEntities("Tom's dog and Tom himself; TOM again.", { occurredAt: MAY_8 });
    expect(mentions.filter((e) => e.key === "tom")).toHaveLength(1);
  });

  test("relative dates resolve against when the memory happened", () => {
    expect(found("I went to a support group yesterday.")).toEqual(["date:7 May 2023"]);
    expect(found("We went camping last summer.")).toEqual(["date:Summer 2022"]);
    expect(found("I'm going to Portugal this summer.")).toEqual(["place:Portugal", "date:Summer 2023"]);
    expect(found("The studio opens next month.")).toEqual(["date:June 2023"]);
    expect(found("We met in 2019.")).toEqual(["date:2019"]);
    expect(found("The concert is on 5 June.")).toEqual(["date:5 June 2023"]);
    // The same words said a year later are another date.
    expect(found("I went to a support group yesterday.", undefined, new Date("2024-01-01T10:00:00Z"))).toEqual([
      "date:31 December 2023",
    ]);
  });
});

async function entitiesOf(namespaceId: string) {
  return (await db()).$queryRaw<{ kind: string; name: string; key: string; aliases: string[]; memories: number }[]>(
    Prisma.sql`SELECT e.kind, e.name, e.key, e.aliases, count(l.memory_id)::int AS memories
               FROM entities e LEFT JOIN memory_entities l ON l.entity_id = e.id
               WHERE e.namespace_id = ${namespaceId} GROUP BY e.id ORDER BY e.key`,
  );
}

/** `[key, aliases]` of the namespace's entities whose key begins with `prefix`. */
async function aliasesOf(namespaceId: string, prefix: string) {
  return (await entitiesOf(namespaceId)).filter((e) => e.key.startsWith(prefix)).map((e) => [e.key, e.aliases]);
}

async function linkCounts(namespaceId: string) {
  const [row] = await (
    await db()
  ).$queryRaw<{ entities: number; links: number; orphans: number; dangling: number }[]>(
    Prisma.sql`SELECT (SELECT count(*)::int FROM entities WHERE namespace_id = ${namespaceId}) AS entities,
                      (SELECT count(*)::int FROM memory_entities WHERE namespace_id = ${namespaceId}) AS links,
                      (SELECT count(*)::int FROM entities e WHERE e.namespace_id = ${namespaceId}
                         AND NOT EXISTS (SELECT 1 FROM memory_entities l WHERE l.entity_id = e.id)) AS orphans,
                      (SELECT count(*)::int FROM memory_entities l WHERE l.namespace_id = ${namespaceId}
                         AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = l.memory_id)) AS dangling`,
  );
  return row;
}

async function remember(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/remember", { key, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: string }[] | { id: string };
}

describe("storage", () => {
  test("mentions merge within a namespace: case, possessives, a speaker's short name", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    await remember(key, {
      namespace_id: ns.id,
      session_id: "s1",
      messages: [
        { role: "Melanie", content: "We went to the Grand Canyon with Tom.", occurred_at: MAY_8.toISOString() },
        {
          role: "Caroline",
          content: "Mel, Tom's photos of the Grand Canyon are lovely!",
          occurred_at: MAY_8.toISOString(),
        },
      ],
    });
    const entities = await entitiesOf(ns.id);
    expect(entities).toEqual([
      { kind: "person", name: "Caroline", key: "caroline", aliases: [], memories: 1 },
      { kind: "place", name: "Grand Canyon", key: "grand canyon", aliases: [], memories: 2 },
      { kind: "person", name: "Melanie", key: "melanie", aliases: ["mel"], memories: 2 },
      { kind: "person", name: "Tom", key: "tom", aliases: [], memories: 2 },
    ]);
    // Another namespace of the organization keeps its own entities.
    const other = await createNamespace(key);
    await remember(key, { namespace_id: other.id, content: "Tom moved to Lisbon." });
    expect((await entitiesOf(other.id)).map((e) => e.key)).toEqual(["lisbon", "tom"]);
    expect((await entitiesOf(ns.id)).map((e) => e.key)).not.toContain("lisbon");
  });

  test("a first or last name alone is the one person of the namespace with that full name", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const memories = [
      "Priya Raman joined Northwind Traders in March.",
      "Tomasz Wolski leads the warehouse team in Gdansk.",
      "Priya's manager approved the travel budget.",
      "Tomasz reviewed the shipping contract on Friday.",
      "The auditors met Wolski and Priya.",
    ];
    // One at a time: each short name meets the full name already stored; then in one write.
    for (const content of memories) await remember(key, { namespace_id: ns.id, content });
    const together = await createNamespace(key);
    await remember(key, { namespace_id: together.id, memories: memories.map((content) => ({ content })) });
    for (const namespaceId of [ns.id, together.id]) {
      const people = (await entitiesOf(namespaceId)).filter((e) => /^(priya|tomasz|wolski)/.test(e.key));
      expect(people).toEqual([
        { kind: expect.any(String), name: "Priya Raman", key: "priya raman", aliases: ["priya"], memories: 3 },
        { kind: "person", name: "Tomasz Wolski", key: "tomasz wolski", aliases: expect.any(Array), memories: 3 },
      ]);
      expect(people[1].aliases.sort()).toEqual(["tomasz", "wolski"]);
    }
  });

  test("a first name shared by two full names stays apart", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    await remember(key, {
      namespace_id: ns.id,
      memories: [
        { content: "Priya Raman joined Northwind Traders." },
        { content: "Priya Shah moved to the Lisbon office." },
        { content: "Priya booked the meeting room." },
      ],
    });
    expect(await aliasesOf(ns.id, "priya")).toEqual([
      ["priya", []],
      ["priya raman", []],
      ["priya shah", []],
    ]);
  });

  test("a short name merges only where the full name is as readable: scopes keep it apart", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    await remember(key, {
      namespace_id: ns.id,
      content: "Priya Raman joined Northwind Traders.",
      scopes: { team: "a" },
    });
    await remember(key, { namespace_id: ns.id, content: "Priya approved the budget.", scopes: { team: "b" } });
    expect(await aliasesOf(ns.id, "priya")).toEqual([
      ["priya", []],
      ["priya raman", []],
    ]);
  });

  test("a short name stays apart when two speakers' names begin with it", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    await remember(key, {
      namespace_id: ns.id,
      session_id: "s1",
      messages: [
        { role: "Melanie", content: "Hi!" },
        { role: "Melissa", content: "Hello Mel!" },
      ],
    });
    expect((await entitiesOf(ns.id)).map((e) => [e.key, e.aliases])).toEqual([
      ["mel", []],
      ["melanie", []],
      ["melissa", []],
    ]);
  });

  test("changing a memory's content re-links its entities and drops the ones nothing names any more", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const memory = (await remember(key, { namespace_id: ns.id, content: "Dana flew to Lisbon." })) as { id: string };
    const response = await api("PATCH", `/memories/${memory.id}`, { key, body: { content: "Dana flew to Porto." } });
    expect(response.status).toBe(200);
    expect((await entitiesOf(ns.id)).map((e) => e.key)).toEqual(["dana", "porto"]);
    expect(await linkCounts(ns.id)).toEqual({ entities: 2, links: 2, orphans: 0, dangling: 0 });
  });
});

describe("deletion leaves no entity or link behind", () => {
  test("forget by id, by identity, expiry, and namespace deletion", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const [kept, forgotten] = (await remember(key, {
      namespace_id: ns.id,
      memories: [{ content: "Dana lives in Lisbon." }, { content: "Dana visited Tokyo with Priya." }],
    })) as { id: string }[];
    expect(await linkCounts(ns.id)).toMatchObject({ entities: 4, links: 5 });

    expect(
      (await api("POST", "/forget", { key, body: { namespace_id: ns.id, memory_ids: [forgotten.id] } })).status,
    ).toBe(200);
    expect((await entitiesOf(ns.id)).map((e) => `${e.key}:${e.memories}`)).toEqual(["dana:1", "lisbon:1"]);
    expect(await linkCounts(ns.id)).toEqual({ entities: 2, links: 2, orphans: 0, dangling: 0 });
    void kept;

    await remember(key, { namespace_id: ns.id, identity_id: "alice", content: "Alice works at Acme Corp." });
    expect((await api("POST", "/forget", { key, body: { namespace_id: ns.id, identity_id: "alice" } })).status).toBe(
      200,
    );
    expect((await entitiesOf(ns.id)).map((e) => e.key)).toEqual(["dana", "lisbon"]);

    await remember(key, {
      namespace_id: ns.id,
      content: "Bob met Carla in Berlin.",
      expires_at: new Date(Date.now() + 1_000).toISOString(),
    });
    await (
      await db()
    ).$executeRaw`UPDATE memories SET expires_at = now() - interval '1 second'
                   WHERE namespace_id = ${ns.id} AND expires_at IS NOT NULL`;
    await sweepExpiredMemories();
    expect((await entitiesOf(ns.id)).map((e) => e.key)).toEqual(["dana", "lisbon"]);
    expect(await linkCounts(ns.id)).toEqual({ entities: 2, links: 2, orphans: 0, dangling: 0 });

    expect((await api("DELETE", `/namespaces/${ns.id}`, { key })).status).toBe(200);
    expect(await linkCounts(ns.id)).toEqual({ entities: 0, links: 0, orphans: 0, dangling: 0 });
  });
});
