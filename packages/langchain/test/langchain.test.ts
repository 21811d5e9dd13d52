// The LangChain adapters against a real server (`npm start`, the production build, over HTTP): the retriever,
// the vector store and LangGraph's long-term memory store.
import { describe, expect, test } from "vitest";
import { Document } from "@langchain/core/documents";
import { MemoryGatewayRetriever, MemoryGatewayStore, MemoryGatewayVectorStore } from "@memory-gateway/langchain";
import { thrown, uniqueName, useHeadlessServer } from "../../../tests/helpers/headless-server";

const gateway = useHeadlessServer("LangChain");
const newNamespace = async () => (await gateway.mg.namespaces.create({ name: uniqueName("langchain") })).id;

describe("MemoryGatewayRetriever", () => {
  test("a query returns the identity's best match first as a Document with where it came from", async () => {
    const namespaceId = await newNamespace();
    const [ferry] = await gateway.mg.remember({
      namespace_id: namespaceId,
      memories: [
        { content: "Ada takes the ferry to Helsinki every June.", identity_id: "ada", metadata: { source: "crm" } },
        { content: "Ada prefers aisle seats.", identity_id: "ada" },
        { content: "Grace takes the ferry to Helsinki every July.", identity_id: "grace" },
      ],
    });
    await gateway.mg.remember({
      namespace_id: namespaceId,
      session_id: "chat-7",
      identity_id: "ada",
      messages: [{ role: "user", content: "Book the usual ferry cabin for Helsinki, please." }],
    });
    const retriever = new MemoryGatewayRetriever({ client: gateway.mg, namespaceId, identityId: "ada", topK: 3 });
    const documents = await retriever.invoke("When does Ada take the ferry to Helsinki?");

    expect(documents[0].pageContent).toBe("Ada takes the ferry to Helsinki every June.");
    expect(documents[0].id).toBe(ferry.id);
    expect(documents[0].metadata).toMatchObject({
      source: "crm",
      memory_id: ferry.id,
      identity_id: "ada",
      session_id: null,
      occurred_at: ferry.occurred_at,
      document: null,
    });
    expect(documents[0].metadata.score).toBeGreaterThan(0);
    expect(documents.map((document) => document.pageContent)).not.toContain(
      "Grace takes the ferry to Helsinki every July.",
    );
    const turn = documents.find((document) => document.metadata.session_id === "chat-7");
    expect(turn?.pageContent).toBe("Book the usual ferry cabin for Helsinki, please.");
  });

  test("a passage of a document carries its citation", async () => {
    const namespaceId = await newNamespace();
    const added = await gateway.mg.documents.create({
      namespace_id: namespaceId,
      title: "Travel policy",
      content_type: "text/plain",
      content: "Employees book rail journeys under six hours instead of flights.",
    });
    // The document is read in the background: wait until its passage can be found.
    for (let attempt = 0; (await gateway.mg.documents.get(added.id)).status !== "ready"; attempt++) {
      expect(attempt).toBeLessThan(100);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const retriever = new MemoryGatewayRetriever({ client: gateway.mg, namespaceId });
    const [passage] = await retriever.invoke("When should employees book rail journeys?");
    expect(passage.pageContent).toContain("rail journeys under six hours");
    expect(passage.metadata.document).toMatchObject({ id: added.id, title: "Travel policy" });
  });
});

describe("MemoryGatewayVectorStore", () => {
  test("added documents keep their scalar metadata; found best first, with scores, by filter; deleted", async () => {
    const namespaceId = await newNamespace();
    const store = new MemoryGatewayVectorStore({ client: gateway.mg, namespaceId });
    const ids = await store.addDocuments([
      new Document({
        pageContent: "The rooftop garden grows tomatoes and basil.",
        // A text splitter's `loc` is an object: the API stores only scalar values, so it is left out.
        metadata: { source: "garden.md", page: 2, draft: false, loc: { lines: { from: 1, to: 3 } } },
      }),
      new Document({ pageContent: "The basement stores bicycles.", metadata: { source: "building.md" } }),
    ]);
    expect(ids).toHaveLength(2);
    expect((await gateway.mg.memories.get(ids[0])).metadata).toEqual({ source: "garden.md", page: 2, draft: false });

    const [best] = await store.similaritySearch("What grows in the rooftop garden?", 2);
    expect(best.pageContent).toBe("The rooftop garden grows tomatoes and basil.");
    expect(best.id).toBe(ids[0]);
    expect(best.metadata).toMatchObject({ source: "garden.md", page: 2, draft: false });

    const scored = await store.similaritySearchWithScore("bicycles in the basement", 2);
    expect(scored[0][0].pageContent).toBe("The basement stores bicycles.");
    expect(scored[0][1]).toBeGreaterThan(scored[1]?.[1] ?? 0);

    const filtered = await store.similaritySearch("What is in the rooftop garden and the basement?", 2, {
      source: "building.md",
    });
    expect(filtered.map((document) => document.pageContent)).toEqual(["The basement stores bicycles."]);

    await store.delete({ ids: [ids[0]] });
    const listed = await gateway.mg.memories.list({ namespace_id: namespaceId });
    expect(listed.data.map((memory) => memory.id)).toEqual([ids[1]]);
  });

  test("addTexts and fromTexts store texts with their metadata; vectors are refused", async () => {
    const namespaceId = await newNamespace();
    const store = await MemoryGatewayVectorStore.fromTexts(
      ["Invoices are due within 30 days.", "Refunds take five working days."],
      [{ topic: "billing" }, { topic: "refunds" }],
      undefined,
      { client: gateway.mg, namespaceId, identityId: "acme" },
    );
    const listed = await gateway.mg.memories.list({ namespace_id: namespaceId });
    expect(listed.data.map((memory) => [memory.content, memory.metadata, memory.identity_id]).sort()).toEqual([
      ["Invoices are due within 30 days.", { topic: "billing" }, "acme"],
      ["Refunds take five working days.", { topic: "refunds" }, "acme"],
    ]);
    const [found] = await store.similaritySearch("How long do refunds take?", 1);
    expect(found.metadata.topic).toBe("refunds");
    expect(String(await thrown(() => store.addVectors()))).toMatch(/takes texts, not vectors/);
    expect(String(await thrown(() => store.similaritySearchVectorWithScore()))).toMatch(/takes texts, not vectors/);
  });
  test("delete forgets only the memories of the store's identity and scopes", async () => {
    const namespaceId = await newNamespace();
    const alice = new MemoryGatewayVectorStore({ client: gateway.mg, namespaceId, identityId: "alice" });
    const bob = new MemoryGatewayVectorStore({ client: gateway.mg, namespaceId, identityId: "bob" });
    const [aliceId] = await alice.addTexts(["Alice keeps bees on the roof."]);
    const [bobId] = await bob.addTexts(["Bob keeps goats in the yard."]);

    await alice.delete({ ids: [bobId] });
    expect((await gateway.mg.memories.get(bobId)).content).toBe("Bob keeps goats in the yard.");
    // Bob's own store, narrowed to scopes his memory does not carry, does not reach it either.
    const bobInTeam = new MemoryGatewayVectorStore({
      client: gateway.mg,
      namespaceId,
      identityId: "bob",
      scopes: { team: "a" },
    });
    await bobInTeam.delete({ ids: [bobId] });
    expect((await gateway.mg.memories.get(bobId)).content).toBe("Bob keeps goats in the yard.");

    await alice.delete({ ids: [aliceId, bobId] });
    expect((await thrown(() => gateway.mg.memories.get(aliceId))) as { status: number }).toMatchObject({ status: 404 });
    expect((await gateway.mg.memories.get(bobId)).content).toBe("Bob keeps goats in the yard.");
    // A store with empty scopes is one without: forget is sent no `scopes: {}` (which it refuses).
    await new MemoryGatewayVectorStore({ client: gateway.mg, namespaceId, identityId: "bob", scopes: {} }).delete({
      ids: [bobId],
    });
    expect((await thrown(() => gateway.mg.memories.get(bobId))) as { status: number }).toMatchObject({ status: 404 });
  });

  test("ids to store documents under are refused: the gateway assigns memory ids", async () => {
    const namespaceId = await newNamespace();
    const store = new MemoryGatewayVectorStore({ client: gateway.mg, namespaceId });
    const document = new Document({ pageContent: "The lift is serviced on Mondays." });
    expect(String(await thrown(() => store.addDocuments([document], { ids: ["lift"] })))).toMatch(
      /cannot store documents under given ids \(options\.ids\)/,
    );
    expect(String(await thrown(() => store.addTexts(["The lift."], [], { ids: ["lift"] })))).toMatch(/options\.ids/);
    expect(String(await thrown(() => store.addVectors([[0.1]], [document], { ids: ["lift"] })))).toMatch(
      /options\.ids/,
    );
    expect((await gateway.mg.memories.list({ namespace_id: namespaceId })).data).toEqual([]);
  });
});

describe("MemoryGatewayStore (LangGraph)", () => {
  test("put, get, update, search by query and by filter, and delete round-trip", async () => {
    const namespaceId = await newNamespace();
    const store = new MemoryGatewayStore({ client: gateway.mg, namespaceId });
    await store.put(["users", "ada", "memories"], "diet", { text: "Ada is vegetarian.", kind: "preference", rank: 1 });
    await store.put(["users", "ada", "memories"], "trip", {
      text: "Ada visits Kyoto in April.",
      kind: "plan",
      rank: 2,
    });
    await store.put(["users", "grace", "memories"], "diet", { text: "Grace is vegan.", kind: "preference", rank: 1 });

    const diet = await store.get(["users", "ada", "memories"], "diet");
    expect(diet).toMatchObject({
      namespace: ["users", "ada", "memories"],
      key: "diet",
      value: { text: "Ada is vegetarian.", kind: "preference", rank: 1 },
    });
    expect(diet?.createdAt).toBeInstanceOf(Date);
    expect(await store.get(["users", "ada", "memories"], "missing")).toBeNull();
    expect(await store.get(["users", "ada"], "diet")).toBeNull();

    await store.put(["users", "ada", "memories"], "diet", { text: "Ada is pescatarian.", kind: "preference", rank: 1 });
    const updated = await store.get(["users", "ada", "memories"], "diet");
    expect(updated?.value.text).toBe("Ada is pescatarian.");
    expect(updated?.updatedAt.getTime()).toBeGreaterThan(diet!.updatedAt.getTime());
    const memories = await gateway.mg.memories.list({ namespace_id: namespaceId });
    expect(memories.data).toHaveLength(3);

    const byQuery = await store.search(["users", "ada"], { query: "When does Ada travel to Kyoto?" });
    expect(byQuery[0]).toMatchObject({ key: "trip", value: { text: "Ada visits Kyoto in April." } });
    expect(byQuery[0].score).toBeGreaterThan(0);
    expect(byQuery.map((item) => item.namespace[1])).not.toContain("grace");

    const preferences = await store.search(["users"], { filter: { kind: "preference" } });
    expect(preferences.map((item) => item.value.text).sort()).toEqual(["Ada is pescatarian.", "Grace is vegan."]);
    const ranked = await store.search(["users", "ada"], { filter: { rank: { $eq: 2 } } });
    expect(ranked.map((item) => item.key)).toEqual(["trip"]);
    const rankedByQuery = await store.search(["users"], { query: "preference", filter: { rank: 1 } });
    expect(rankedByQuery.map((item) => item.value.text).sort()).toEqual(["Ada is pescatarian.", "Grace is vegan."]);
    const paged = await store.search(["users"], { limit: 1, offset: 1 });
    expect(paged).toHaveLength(1);
    expect(paged[0].key).toBe("trip");

    await store.delete(["users", "ada", "memories"], "diet");
    expect(await store.get(["users", "ada", "memories"], "diet")).toBeNull();
    expect(await store.get(["users", "grace", "memories"], "diet")).not.toBeNull();
  });

  test("two keys with equal values are two items", async () => {
    const namespaceId = await newNamespace();
    const store = new MemoryGatewayStore({ client: gateway.mg, namespaceId });
    await store.put(["notes"], "a", { text: "Water the plants." });
    await store.put(["notes"], "b", { text: "Water the plants." });
    await store.delete(["notes"], "a");
    expect(await store.get(["notes"], "b")).toMatchObject({ key: "b", value: { text: "Water the plants." } });
  });

  test("another identity's or scope's item is not reached by its namespace and key", async () => {
    const namespaceId = await newNamespace();
    const alice = new MemoryGatewayStore({ client: gateway.mg, namespaceId, identityId: "alice" });
    const bob = new MemoryGatewayStore({ client: gateway.mg, namespaceId, identityId: "bob" });
    const bobInTeam = new MemoryGatewayStore({
      client: gateway.mg,
      namespaceId,
      identityId: "bob",
      scopes: { team: "a" },
    });
    await bob.put(["notes"], "k", { text: "Bob's note." });
    expect(await alice.get(["notes"], "k")).toBeNull();
    expect(await bobInTeam.get(["notes"], "k")).toBeNull();

    await alice.put(["notes"], "k", { text: "Alice's note." });
    await alice.delete(["notes"], "k");
    await bobInTeam.delete(["notes"], "k");
    expect(await alice.get(["notes"], "k")).toBeNull();
    expect((await bob.get(["notes"], "k"))?.value).toEqual({ text: "Bob's note." });
    expect(await alice.search(["notes"], { query: "note" })).toEqual([]);
  });

  test("values with more fields than metadata takes are stored whole; filters on fields left out throw", async () => {
    const namespaceId = await newNamespace();
    const store = new MemoryGatewayStore({ client: gateway.mg, namespaceId });
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`f${index}`, index]));
    const long = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [`s${index}`, String(index).padEnd(250, "x")]),
    );
    await store.put(["wide"], "many", many);
    await store.put(["wide"], "long", long);
    expect((await store.get(["wide"], "many"))?.value).toEqual(many);
    expect((await store.get(["wide"], "long"))?.value).toEqual(long);

    // The first fields are copied: filters on them work, with and without a query.
    expect((await store.search(["wide"], { filter: { f0: 0 } })).map((item) => item.key)).toEqual(["many"]);
    expect((await store.search(["wide"], { filter: { s1: long.s1 } })).map((item) => item.key)).toEqual(["long"]);
    expect((await store.search(["wide"], { query: "1", filter: { f1: 1 } })).map((item) => item.key)).toEqual(["many"]);
    // The last ones were not: a filter on them would miss the item, and says so.
    expect(String(await thrown(() => store.search(["wide"], { filter: { f99: 99 } })))).toMatch(
      /cannot filter on "f99" under \["wide"\]: the item \["wide"\] "many" holds it/,
    );
    expect(String(await thrown(() => store.search(["wide"], { query: "x", filter: { s39: long.s39 } })))).toMatch(
      /cannot filter on "s39"/,
    );
    // An update that fits again is copied whole, and is no longer refused.
    await store.put(["wide"], "many", { f99: 99 });
    expect((await store.search(["wide"], { filter: { f99: 99 } })).map((item) => item.key)).toEqual(["many"]);
  });

  test("listNamespaces lists each namespace once, by prefix, suffix and depth", async () => {
    const namespaceId = await newNamespace();
    const store = new MemoryGatewayStore({ client: gateway.mg, namespaceId });
    await store.put(["users", "ada", "memories"], "one", { text: "one" });
    await store.put(["users", "ada", "memories"], "two", { text: "two" });
    await store.put(["users", "grace", "memories"], "one", { text: "one" });
    await store.put(["users", "grace", "profile"], "one", { text: "one" });
    await store.put(["teams", "core"], "one", { text: "one" });
    // A memory stored some other way is no item of the store.
    await gateway.mg.remember({ namespace_id: namespaceId, content: "Not an item." });

    expect(await store.listNamespaces()).toEqual([
      ["teams", "core"],
      ["users", "ada", "memories"],
      ["users", "grace", "memories"],
      ["users", "grace", "profile"],
    ]);
    expect(await store.listNamespaces({ prefix: ["users", "grace"] })).toEqual([
      ["users", "grace", "memories"],
      ["users", "grace", "profile"],
    ]);
    expect(await store.listNamespaces({ suffix: ["memories"] })).toEqual([
      ["users", "ada", "memories"],
      ["users", "grace", "memories"],
    ]);
    expect(await store.listNamespaces({ prefix: ["users", "*", "memories"] })).toHaveLength(2);
    expect(await store.listNamespaces({ maxDepth: 1 })).toEqual([["teams"], ["users"]]);
    expect(await store.listNamespaces({ limit: 1, offset: 1 })).toEqual([["users", "ada", "memories"]]);
  });

  test("what the gateway cannot do is refused with an error saying so", async () => {
    const store = new MemoryGatewayStore({ client: gateway.mg, namespaceId: await newNamespace() });
    expect(String(await thrown(() => store.search(["users"], { filter: { rank: { $gt: 1 } } })))).toMatch(
      /\$gt.*not supported/,
    );
    expect(String(await thrown(() => store.search(["users"], { filter: { tags: ["a"] } })))).toMatch(
      /cannot filter on "tags"/,
    );
    expect(String(await thrown(() => store.put(["users"], "k", { text: "x" }, false)))).toMatch(/`index`/);
    expect(String(await thrown(() => store.search(["users"], { query: "x", limit: 100, offset: 1 })))).toMatch(
      /at most 100/,
    );
    // GET /memories splits metadata=key:value at the first colon.
    expect(String(await thrown(() => store.search(["users"], { filter: { "a:b": "c" } })))).toMatch(
      /cannot filter on "a:b": field names containing a colon/,
    );
    // Keys and namespaces GET /memories could not be asked for (over 1,000 characters) are never stored.
    expect(String(await thrown(() => store.put(["users"], "k".repeat(1_001), { text: "x" })))).toMatch(
      /cannot store this item: its key is 1001 characters/,
    );
    expect(String(await thrown(() => store.put(["users", "u".repeat(1_000)], "k", { text: "x" })))).toMatch(
      /its namespace is 1012 characters as JSON/,
    );
    expect(await store.get(["users"], "k".repeat(1_001))).toBeNull();
    await store.delete(["users"], "k".repeat(1_001));
  });
});
