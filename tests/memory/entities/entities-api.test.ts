// The entities of a namespace through the API and MCP: GET /entities, /entities/{id} and
// /identities/{id}/entities over memories really remembered; recall's `entities` filter and the entities each
// match carries; and isolation: another organization, a namespace not granted, and a key with scopes never
// learn an entity that only memories out of their reach mention, nor count those memories.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, test } from "vitest";
import { api, routeRequest, type ApiResponse } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";

interface Entity {
  id: string;
  namespace_id: string;
  kind: string;
  name: string;
  aliases: string[];
  memory_count: number;
  mention_count: number;
  first_mentioned_at: string;
  last_mentioned_at: string;
}

interface EntityDetail extends Entity {
  co_occurring: { entity: { id: string; kind: string; name: string }; shared_memories: number }[];
}

async function remember(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/remember", { key, body });
  if (response.status !== 201) throw new Error(`remember failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string };
}

/**
 * A namespace of team a's and team b's memories about the same people, with an identity. Caroline is in
 * both teams' memories; Zebulon Pike and Yellowstone only in team b's; Acme Corp only in team a's.
 */
async function tenantWithStory() {
  const tenant = await createTenant("Entities");
  const ns = await createNamespace(tenant.key);
  const a = { team: "a" };
  const b = { team: "b" };
  const memories = {
    canyon: await remember(tenant.key, {
      namespace_id: ns.id,
      content: "Caroline hiked the Grand Canyon with Melanie.",
      scopes: a,
      identity_id: "user-1",
      occurred_at: "2023-05-08T10:00:00.000Z",
    }),
    acme: await remember(tenant.key, {
      namespace_id: ns.id,
      content: "Caroline joined Acme Corp in Chicago.",
      scopes: a,
      identity_id: "user-1",
      occurred_at: "2023-06-01T10:00:00.000Z",
    }),
    portugal: await remember(tenant.key, {
      namespace_id: ns.id,
      content: "Melanie moved to Portugal last summer.",
      scopes: a,
      identity_id: "user-2",
      occurred_at: "2023-07-01T10:00:00.000Z",
    }),
    yellowstone: await remember(tenant.key, {
      namespace_id: ns.id,
      content: "Zebulon Pike secretly visited Yellowstone with Caroline.",
      scopes: b,
      identity_id: "user-1",
      occurred_at: "2024-01-02T10:00:00.000Z",
    }),
    concert: await remember(tenant.key, {
      namespace_id: ns.id,
      content: "Ed Sheeran played a concert in Chicago.",
      scopes: a,
      occurred_at: "2023-04-01T10:00:00.000Z",
    }),
  };
  const teamA = await createKey(tenant.org.id, {
    permissions: ["NAMESPACE_READ"],
    scopes: a,
    namespaceIds: [ns.id],
  });
  return { ...tenant, ns, memories, teamA: teamA.secret };
}

async function listAll(key: string, query: string) {
  const response = await api("GET", `/entities?${query}`, { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as Entity[];
}

const byName = (entities: Entity[]) => Object.fromEntries(entities.map((e) => [e.name, e]));

describe("GET /entities", () => {
  test("lists what the memories name, most mentioned first, with counts, aliases and first/last mention", async () => {
    const { key, ns } = await tenantWithStory();
    const response = await api("GET", `/entities?namespace_id=${ns.id}`, { key });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const entities = response.body.data as Entity[];
    const named = byName(entities);
    expect(named.Caroline).toMatchObject({
      namespace_id: ns.id,
      kind: "person",
      memory_count: 3,
      mention_count: 3,
      first_mentioned_at: "2023-05-08T10:00:00.000Z",
      last_mentioned_at: "2024-01-02T10:00:00.000Z",
    });
    expect(named.Chicago).toMatchObject({ kind: "place", memory_count: 2 });
    expect(named["Acme Corp"]).toMatchObject({ kind: "organization", memory_count: 1 });
    expect(named["Summer 2022"]).toMatchObject({ kind: "date", memory_count: 1 });
    expect(entities[0].name).toBe("Caroline");
    // Memory count descending, then name: the same order on every read.
    const order = entities.map((e) => [-e.memory_count, e.name]);
    expect(order).toEqual([...order].sort((x, y) => (x[0] !== y[0] ? +x[0] - +y[0] : x[1] < y[1] ? -1 : 1)));
    expect(response.body.pagination).toMatchObject({ page: 1, pageSize: 20, total: entities.length, nextCursor: null });
    // Only the fields of an entity leave the API.
    expect(Object.keys(entities[0]).sort()).toEqual([
      "aliases",
      "first_mentioned_at",
      "id",
      "kind",
      "last_mentioned_at",
      "memory_count",
      "mention_count",
      "name",
      "namespace_id",
    ]);
  });

  test("kind and q filter; q matches a part of a name or alias in any case, and % or _ only themselves", async () => {
    const { key, ns } = await tenantWithStory();
    const places = await listAll(key, `namespace_id=${ns.id}&kind=place`);
    expect(places.map((e) => e.name).sort()).toEqual(["Chicago", "Grand Canyon", "Portugal"]);
    expect(places.every((e) => e.kind === "place")).toBe(true);
    expect((await listAll(key, `namespace_id=${ns.id}&q=CAN`)).map((e) => e.name)).toEqual(["Grand Canyon"]);
    expect((await listAll(key, `namespace_id=${ns.id}&q=ca&kind=person`)).map((e) => e.name)).toEqual(["Caroline"]);
    expect(await listAll(key, `namespace_id=${ns.id}&q=${encodeURIComponent("%")}`)).toEqual([]);
    expect(await listAll(key, `namespace_id=${ns.id}&q=_`)).toEqual([]);

    // An alias: "Mel" said in a conversation with the speaker Melanie merges into her.
    await remember(key, {
      namespace_id: ns.id,
      session_id: "chat-1",
      messages: [
        { role: "Melanie", content: "I love the beach." },
        { role: "Caroline", content: "Mel, me too!" },
      ],
    });
    const melanie = await listAll(key, `namespace_id=${ns.id}&q=mel`);
    expect(melanie.map((e) => [e.name, e.aliases])).toEqual([["Melanie", ["mel"]]]);
  });

  test("pages by cursor: every entity once, in order; a cursor of another listing or altered is refused", async () => {
    const { key, ns } = await tenantWithStory();
    const everything = await listAll(key, `namespace_id=${ns.id}&page_size=100`);
    expect(everything.length).toBeGreaterThan(6);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: ApiResponse = await api(
        "GET",
        `/entities?namespace_id=${ns.id}&page_size=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        { key },
      );
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      pages += 1;
      expect(response.body.pagination).toMatchObject({ page: pages, pageSize: 3, total: everything.length });
      seen.push(...response.body.data.map((e: Entity) => e.id));
      cursor = response.body.pagination.nextCursor;
    } while (cursor && pages < 20);
    expect(seen).toEqual(everything.map((e) => e.id));
    expect(pages).toBe(Math.ceil(everything.length / 3));

    const first = await api("GET", `/entities?namespace_id=${ns.id}&page_size=3`, { key });
    const next = first.body.pagination.nextCursor as string;
    const otherListing = await api("GET", `/entities?namespace_id=${ns.id}&page_size=3&kind=person&cursor=${next}`, {
      key,
    });
    expect(otherListing.status).toBe(400);
    expect(otherListing.body.error.details[0]).toMatchObject({ field: "query.cursor" });
    // One character of the signature changed: its first, whose six bits all count (two of the last one's do not,
    // so changing the last two characters left the signature's bytes as they were about once in 256 runs).
    const [position, signature] = next.split(".");
    const tampered = `${position}.${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;
    const altered = await api("GET", `/entities?namespace_id=${ns.id}&cursor=${tampered}`, { key });
    expect(altered.status).toBe(400);
    expect(altered.body.error.code).toBe("BAD_REQUEST");
  });

  test("bad input is a 400 naming the field; an unknown namespace a 404; no key a 401", async () => {
    const { key, ns } = await tenantWithStory();
    const badKind = await api("GET", `/entities?namespace_id=${ns.id}&kind=planet`, { key });
    expect(badKind.status).toBe(400);
    expect(badKind.body.error.details).toEqual([
      { field: "query.kind", message: "must be one of person, organization, place, work, event, date, other" },
    ]);
    for (const size of ["0", "101", "ten"]) {
      const response = await api("GET", `/entities?namespace_id=${ns.id}&page_size=${size}`, { key });
      expect(response.status).toBe(400);
      expect(response.body.error.details[0].field).toBe("query.page_size");
    }
    const longQ = await api("GET", `/entities?namespace_id=${ns.id}&q=${"x".repeat(201)}`, { key });
    expect(longQ.status).toBe(400);
    expect(longQ.body.error.details[0].field).toBe("query.q");
    const nul = await api("GET", `/entities?namespace_id=${ns.id}&q=${encodeURIComponent("Caro\u0000line")}`, { key });
    expect(nul.status).toBe(400);
    expect(nul.body.error.details[0].field).toBe("query.q");
    const neither = await api("GET", "/entities", { key });
    expect(neither.status).toBe(400);
    const unknown = await api("GET", "/entities?namespace_id=ns_doesnotexist", { key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("NOT_FOUND");
    expect((await api("GET", `/entities?namespace_id=${ns.id}`)).status).toBe(401);
  });

  test("a key without NAMESPACE_READ is refused (403)", async () => {
    const { org, ns } = await tenantWithStory();
    const writer = await createKey(org.id, { permissions: ["NAMESPACE_WRITE"], namespaceIds: [ns.id] });
    const response = await api("GET", `/entities?namespace_id=${ns.id}`, { key: writer.secret });
    expect(response.status).toBe(403);
  });
});

describe("GET /entities/{id}", () => {
  test("an entity with its counts and the entities it is mentioned with, most shared first", async () => {
    const { key, ns } = await tenantWithStory();
    const named = byName(await listAll(key, `namespace_id=${ns.id}`));
    const response = await api("GET", `/entities/${named.Caroline.id}`, { key });
    expect(response.status).toBe(200);
    const detail = response.body.data as EntityDetail;
    expect(detail).toMatchObject({ ...named.Caroline });
    const shared = Object.fromEntries(detail.co_occurring.map((c) => [c.entity.name, c.shared_memories]));
    expect(shared).toEqual({
      "Acme Corp": 1,
      Chicago: 1,
      "Grand Canyon": 1,
      Melanie: 1,
      "Zebulon Pike": 1,
      Yellowstone: 1,
    });
    expect(detail.co_occurring.find((c) => c.entity.name === "Melanie")!.entity).toEqual({
      id: named.Melanie.id,
      kind: "person",
      name: "Melanie",
    });

    const chicago = (await api("GET", `/entities/${named.Chicago.id}`, { key })).body.data as EntityDetail;
    expect(chicago.co_occurring.map((c) => c.entity.name).sort()).toEqual(["Acme Corp", "Caroline", "Ed Sheeran"]);
  });

  test("an unknown or malformed id is a 404 or a 400 in the envelope", async () => {
    const { key } = await tenantWithStory();
    const unknown = await api("GET", "/entities/ent_doesnotexist", { key });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
    const tooLong = await api("GET", `/entities/${"e".repeat(300)}`, { key });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details[0].field).toBe("path.id");
    const invisible = await api("GET", `/entities/${encodeURIComponent("ent_\u200b")}`, { key });
    expect(invisible.status).toBe(400);
  });
});

describe("isolation", () => {
  test("another organization's key gets 404 for an entity id and cannot list its namespace", async () => {
    const { key, ns } = await tenantWithStory();
    const named = byName(await listAll(key, `namespace_id=${ns.id}`));
    const other = await createTenant("Other");
    const byId = await api("GET", `/entities/${named.Caroline.id}`, { key: other.key });
    expect(byId.status).toBe(404);
    expect(byId.body.error.code).toBe("NOT_FOUND");
    expect((await api("GET", `/entities?namespace_id=${ns.id}`, { key: other.key })).status).toBe(404);
    expect((await api("GET", `/identities/user-1/entities`, { key: other.key })).body.data).toEqual({
      identity_id: "user-1",
      memory_count: 0,
      entities: [],
    });
  });

  test("a key granted one namespace sees none of another's entities", async () => {
    const { org, key, ns } = await tenantWithStory();
    const second = await createNamespace(key);
    await remember(key, { namespace_id: second.id, content: "Oprah Winfrey visited the Louvre Museum." });
    const secondEntities = await listAll(key, `namespace_id=${second.id}`);
    const louvre = secondEntities.find((e) => e.name === "Louvre Museum")!;
    expect(louvre).toBeDefined();
    const restricted = await createKey(org.id, { permissions: ["NAMESPACE_READ"], namespaceIds: [ns.id] });
    expect((await api("GET", `/entities?namespace_id=${second.id}`, { key: restricted.secret })).status).toBe(404);
    expect((await api("GET", `/entities/${louvre.id}`, { key: restricted.secret })).status).toBe(404);
    const recalled = await api("POST", "/recall", {
      key: restricted.secret,
      body: { namespace_id: second.id, query: "Louvre", entities: [louvre.id] },
    });
    expect(recalled.status).toBe(404);
    // Its own namespace still answers.
    expect((await api("GET", `/entities?namespace_id=${ns.id}`, { key: restricted.secret })).status).toBe(200);
  });

  test("a key with scopes {team: a} never learns an entity only team b's memories name, nor counts them", async () => {
    const { key, ns, teamA, memories } = await tenantWithStory();
    const all = byName(await listAll(key, `namespace_id=${ns.id}`));
    const seen = byName(await listAll(teamA, `namespace_id=${ns.id}`));
    // Not listed, not found by id, not searchable.
    expect(seen).not.toHaveProperty("Zebulon Pike");
    expect(seen).not.toHaveProperty("Yellowstone");
    expect(await listAll(teamA, `namespace_id=${ns.id}&q=zeb`)).toEqual([]);
    for (const hidden of [all["Zebulon Pike"], all.Yellowstone]) {
      const response = await api("GET", `/entities/${hidden.id}`, { key: teamA });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("NOT_FOUND");
    }
    // Counts and last mention leave out the team b memory; so does the list's total.
    expect(seen.Caroline).toMatchObject({
      memory_count: 2,
      mention_count: 2,
      last_mentioned_at: "2023-06-01T10:00:00.000Z",
    });
    const page = await api("GET", `/entities?namespace_id=${ns.id}`, { key: teamA });
    expect(page.body.pagination.total).toBe(Object.keys(all).length - 2);
    // Not among the co-occurring entities either, and the shared counts are team a's.
    const caroline = (await api("GET", `/entities/${all.Caroline.id}`, { key: teamA })).body.data as EntityDetail;
    expect(caroline.memory_count).toBe(2);
    expect(caroline.co_occurring.map((c) => c.entity.name).sort()).toEqual([
      "Acme Corp",
      "Chicago",
      "Grand Canyon",
      "Melanie",
    ]);
    // An identity's profile: only team a's memories of user-1.
    const profile = await api("GET", `/identities/user-1/entities?namespace_id=${ns.id}`, { key: teamA });
    expect(profile.status).toBe(200);
    expect(profile.body.data.memory_count).toBe(2);
    const profileNames = profile.body.data.entities.map((e: Entity) => e.name);
    expect(profileNames).not.toContain("Zebulon Pike");
    expect(profileNames).not.toContain("Yellowstone");
    expect(profile.body.data.entities[0]).toMatchObject({ name: "Caroline", memory_count: 2 });
    // Recall by a hidden entity finds nothing; the matches carry no hidden entity.
    const byHidden = await api("POST", "/recall", {
      key: teamA,
      body: { namespace_id: ns.id, query: "Caroline", entities: [all["Zebulon Pike"].id], min_score: 0 },
    });
    expect(byHidden.status).toBe(200);
    expect(byHidden.body.data).toEqual([]);
    const recalled = await api("POST", "/recall", {
      key: teamA,
      body: { namespace_id: ns.id, query: "Caroline", min_score: 0, top_k: 100 },
    });
    expect(recalled.body.data.map((m: { memory_id: string }) => m.memory_id)).not.toContain(memories.yellowstone.id);
    const carried = recalled.body.data.flatMap((m: { entities: { name: string }[] }) => m.entities.map((e) => e.name));
    expect(carried).not.toContain("Zebulon Pike");
  });
});

describe("GET /identities/{id}/entities", () => {
  test("what an identity's memories are about, ranked by how many of them mention each", async () => {
    const { key, ns } = await tenantWithStory();
    const response = await api("GET", `/identities/user-1/entities?namespace_id=${ns.id}`, { key });
    expect(response.status).toBe(200);
    const profile = response.body.data as { identity_id: string; memory_count: number; entities: Entity[] };
    expect(profile.identity_id).toBe("user-1");
    expect(profile.memory_count).toBe(3);
    expect(profile.entities[0]).toMatchObject({ name: "Caroline", memory_count: 3, namespace_id: ns.id });
    // Counts over user-1's memories only: Melanie is in one of them (and in one of user-2's).
    expect(byName(profile.entities).Melanie.memory_count).toBe(1);
    expect(byName(profile.entities)).not.toHaveProperty("Portugal");
    expect(byName(profile.entities)).not.toHaveProperty("Ed Sheeran");
    // Every namespace the key may use, without namespace_id; a limit.
    const limited = await api("GET", "/identities/user-1/entities?limit=2", { key });
    expect(limited.status).toBe(200);
    expect(limited.body.data.entities).toHaveLength(2);
    expect(limited.body.data.entities[0].name).toBe("Caroline");
    // An identity with no memory: an empty profile.
    const nobody = await api("GET", `/identities/nobody/entities?namespace_id=${ns.id}`, { key });
    expect(nobody.body.data).toEqual({ identity_id: "nobody", memory_count: 0, entities: [] });
  });

  test("bad limit or namespace are refused in the envelope", async () => {
    const { key } = await tenantWithStory();
    const badLimit = await api("GET", "/identities/user-1/entities?limit=0", { key });
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error.details[0].field).toBe("query.limit");
    const unknown = await api("GET", "/identities/user-1/entities?namespace_id=ns_nope", { key });
    expect(unknown.status).toBe(404);
    const nul = await api("GET", `/identities/${encodeURIComponent("user\u00001")}/entities`, { key });
    expect(nul.status).toBe(400);
    expect(nul.body.error.details[0].field).toBe("path.id");
  });
});

describe("recall with entities", () => {
  test("only memories mentioning every entity listed, by id or by name; each match carries its entities", async () => {
    const { key, ns, memories } = await tenantWithStory();
    const named = byName(await listAll(key, `namespace_id=${ns.id}`));
    const recall = async (entities: string[], query = "where did they go") => {
      const response = await api("POST", "/recall", {
        key,
        body: { namespace_id: ns.id, query, entities, min_score: 0, top_k: 100 },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.data as { memory_id: string; entities: { id: string; kind: string; name: string }[] }[];
    };
    const ids = (matches: { memory_id: string }[]) => matches.map((m) => m.memory_id).sort();

    expect(ids(await recall(["Chicago"]))).toEqual([memories.acme.id, memories.concert.id].sort());
    expect(ids(await recall([named.Chicago.id, "caroline's"]))).toEqual([memories.acme.id]);
    expect(ids(await recall(["CAROLINE", "Melanie"]))).toEqual([memories.canyon.id]);
    expect(ids(await recall(["Summer 2022"]))).toEqual([memories.portugal.id]);
    expect(ids(await recall(["2022-summer"]))).toEqual([memories.portugal.id]);
    // A name no memory mentions matches nothing (not an error); one of two unknown: nothing either.
    expect(await recall(["Atlantis"])).toEqual([]);
    expect(await recall(["Caroline", "Atlantis"])).toEqual([]);

    const [acme] = await recall(["Acme Corp"]);
    expect(acme.entities.map((e) => e.name).sort()).toEqual(["Acme Corp", "Caroline", "Chicago"]);
    expect(acme.entities.find((e) => e.name === "Acme Corp")).toEqual({
      id: named["Acme Corp"].id,
      kind: "organization",
      name: "Acme Corp",
    });
    // Without the filter, every match still says what it mentions.
    const plain = await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "Grand Canyon hike" } });
    expect(plain.body.data[0].memory_id).toBe(memories.canyon.id);
    expect(plain.body.data[0].entities.map((e: { name: string }) => e.name).sort()).toEqual([
      "Caroline",
      "Grand Canyon",
      "Melanie",
    ]);
  });

  test("the filter applies inside the search, before top_k: the matches are the entity's, not a page cut", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const rows = Array.from({ length: 30 }, (_, i) => ({ content: `The garden meeting number ${i} went well.` }));
    await api("POST", "/remember", { key, body: { namespace_id: ns.id, memories: rows } });
    const target = await remember(key, { namespace_id: ns.id, content: "Caroline skipped the garden meeting." });
    const response = await api("POST", "/recall", {
      key,
      body: { namespace_id: ns.id, query: "garden meeting", top_k: 3, entities: ["Caroline"] },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.map((m: { memory_id: string }) => m.memory_id)).toEqual([target.id]);
  });

  test("with an entity filter, a general question lists the entity's memories: they are the candidates", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const written = await api("POST", "/remember", {
      key,
      body: {
        namespace_id: ns.id,
        memories: [
          { content: "Tomasz Wolski leads the warehouse team in Gdansk." },
          { content: "Tomasz reviewed the shipping contract on Friday." },
          { content: "The auditors met Wolski and Priya Raman." },
          { content: "The canteen serves pierogi on Thursdays." },
        ],
      },
    });
    const ids = (written.body.data as { id: string }[]).map((m) => m.id);
    const response = await api("POST", "/recall", {
      key,
      body: { namespace_id: ns.id, query: "who is involved", entities: ["Tomasz Wolski"] },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.map((m: { memory_id: string }) => m.memory_id).sort()).toEqual(ids.slice(0, 3).sort());
    // Without the filter the question shares no word with them and is not close in meaning: the relevance floor
    // leaves nothing, and recall lists only the closest memory naming a person, with a low score.
    const plain = await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "who is involved" } });
    expect(plain.body.data.length).toBeLessThanOrEqual(1);
    for (const match of plain.body.data as { score: number; match_reasons: { via: string } }[]) {
      expect(match.score).toBeLessThan(0.1);
      expect(match.match_reasons.via).toBe("meaning");
    }
  });

  test("ask takes the same filter", async () => {
    const { key, ns, memories } = await tenantWithStory();
    const response = await api("POST", "/ask", {
      key,
      body: { namespace_id: ns.id, query: "Where is Chicago mentioned?", entities: ["Ed Sheeran"] },
    });
    expect(response.status).toBe(200);
    const sources = response.body.data.sources as { memory_id: string }[];
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.every((s) => s.memory_id === memories.concert.id)).toBe(true);
  });

  test("bad entities lists are a 400 naming the field", async () => {
    const { key, ns } = await tenantWithStory();
    const cases: [unknown, string][] = [
      [Array.from({ length: 21 }, (_, i) => `e${i}`), "body.entities"],
      [["x".repeat(201)], "body.entities.0"],
      [[""], "body.entities.0"],
      ["Caroline", "body.entities"],
      [[42], "body.entities.0"],
      [["Caro\u0000line"], "body.entities.0"],
    ];
    for (const [entities, field] of cases) {
      const response = await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "x", entities } });
      expect(response.status, JSON.stringify(entities)).toBe(400);
      expect(response.body.error.details[0].field).toBe(field);
    }
  });
});

describe("over MCP", () => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  async function connect(namespaceId: string, key: string) {
    const client = new Client({ name: "memgw-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`http://gateway.test/api/v1/mcp/${namespaceId}`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: (input, init) => routeRequest(new Request(input, init)),
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>) {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as { text: string }[]).map((c) => c.text).join("");
    return { isError: Boolean(result.isError), text, json: result.isError ? undefined : JSON.parse(text) };
  }

  test("list_entities pages the namespace's entities within the key's scopes", async () => {
    const { org, ns, teamA } = await tenantWithStory();
    const client = await connect(ns.id, teamA);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "ask",
      "get_profile",
      "list_entities",
      "recall",
      "recall_by_entity",
    ]);

    const people = await call(client, "list_entities", { kind: "person" });
    expect(people.isError).toBe(false);
    expect(people.json.data.map((e: Entity) => e.name)).toEqual(["Caroline", "Melanie", "Ed Sheeran"]);
    const firstPage = await call(client, "list_entities", { page_size: 2 });
    expect(firstPage.json.data).toHaveLength(2);
    const secondPage = await call(client, "list_entities", {
      page_size: 2,
      cursor: firstPage.json.pagination.nextCursor,
    });
    expect(secondPage.json.pagination.page).toBe(2);
    expect(secondPage.json.data[0].id).not.toBe(firstPage.json.data[0].id);
    const everything = await call(client, "list_entities", { page_size: 100 });
    expect(everything.json.data.map((e: Entity) => e.name)).not.toContain("Zebulon Pike");

    const bad = await call(client, "list_entities", { kind: "planet" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("kind");
    const widened = await call(client, "list_entities", { namespace_id: "ns_other" });
    expect(widened.isError).toBe(true);

    // A key without the read permission is not offered them.
    const writer = await createKey(org.id, { permissions: ["NAMESPACE_WRITE"], namespaceIds: [ns.id] });
    const writerClient = await connect(ns.id, writer.secret);
    expect((await writerClient.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      "add_document",
      "forget",
      "remember",
    ]);
  });

  test("recall_by_entity finds the memories naming an entity, by id or name, with or without a query", async () => {
    const { ns, key, memories } = await tenantWithStory();
    const client = await connect(ns.id, key);
    const named = byName(await listAll(key, `namespace_id=${ns.id}`));
    const byId = await call(client, "recall_by_entity", { entity: named.Chicago.id });
    expect(byId.isError).toBe(false);
    expect(byId.json.map((m: { memory_id: string }) => m.memory_id).sort()).toEqual(
      [memories.acme.id, memories.concert.id].sort(),
    );
    // By id, the entity's name is what is looked for: each memory matches it as a word, as by name.
    expect(byId.json.map((m: { match_reasons: { terms: string[] } }) => m.match_reasons.terms)).toEqual([
      ["Chicago"],
      ["Chicago"],
    ]);
    const withQuery = await call(client, "recall_by_entity", { entity: "Chicago", query: "concert music" });
    expect(withQuery.json[0].memory_id).toBe(memories.concert.id);
    expect(
      withQuery.json.every((m: { entities: { name: string }[] }) => m.entities.some((e) => e.name === "Chicago")),
    ).toBe(true);
    const unknown = await call(client, "recall_by_entity", { entity: "Atlantis" });
    expect(unknown.json).toEqual([]);
    // The recall tool takes the filter too.
    // The entity's memories are the candidates: the one the query is about first.
    const recalled = await call(client, "recall", { query: "Portugal", entities: ["Melanie"] });
    expect(recalled.json[0].memory_id).toBe(memories.portugal.id);
    expect(
      recalled.json.every((m: { entities: { name: string }[] }) => m.entities.some((e) => e.name === "Melanie")),
    ).toBe(true);
  });
});

test("the OpenAPI document describes the three routes with named schemas, and recall's entities", async () => {
  const document = (await api("GET", "/openapi.json")).body;
  expect(document.components.schemas).toHaveProperty("Entity");
  expect(document.components.schemas).toHaveProperty("EntityRef");
  expect(document.components.schemas).toHaveProperty("EntityDetail");
  expect(document.components.schemas).toHaveProperty("IdentityEntities");
  expect(document.components.schemas.Entity.properties.kind.enum).toEqual([
    "person",
    "organization",
    "place",
    "work",
    "event",
    "date",
    "other",
  ]);
  for (const path of ["/entities", "/entities/{id}", "/identities/{id}/entities"]) {
    expect(document.paths[path].get.description).toMatch(/\. Requires the NAMESPACE_READ permission\.$/);
    expect(Object.keys(document.paths[path].get.responses)).toEqual(expect.arrayContaining(["200", "400", "404"]));
  }
  expect(document.components.schemas.RecallBody.properties.entities).toMatchObject({ type: "array", maxItems: 20 });
  expect(document.components.schemas.Match.properties.entities.items).toEqual({
    $ref: "#/components/schemas/EntityRef",
  });
});
