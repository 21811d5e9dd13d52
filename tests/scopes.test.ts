import { expect, test } from "vitest";
import { api } from "./helpers/api";
import { createKey, createNamespace, createTenant } from "./helpers/fixtures";
import { recallContents, rememberAll, storedCounts } from "./helpers/memory";

const SALES = "The sales team's quarterly target is 2 million euros.";
const SALES_EU = "The sales team in Europe meets every Tuesday in Paris.";
const ENG = "The engineering team's quarterly target is shipping the new search.";
const OPEN = "Everyone's quarterly target review happens in the last week.";

async function scopedSetup(scopes: Record<string, string>) {
  const { org, key: admin } = await createTenant();
  const ns = await createNamespace(admin);
  const memories = await rememberAll(admin, ns.id, [
    { content: SALES, scopes: { team: "sales" } },
    { content: SALES_EU, scopes: { team: "sales", region: "eu" } },
    { content: ENG, scopes: { team: "eng" } },
    { content: OPEN },
  ]);
  const scoped = await createKey(org.id, { permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"], scopes, namespaceIds: [ns.id] });
  const byContent = Object.fromEntries(memories.map((m) => [m.content, m.id]));
  return { admin, ns, scoped: scoped.secret, byContent };
}

test("a scoped key recalls only memories carrying all of its scope pairs", async () => {
  const { ns, scoped } = await scopedSetup({ team: "sales" });
  expect((await recallContents(scoped, { namespace_id: ns.id, query: "quarterly target team" })).sort()).toEqual([SALES, SALES_EU].sort());
  const { ns: ns2, scoped: both } = await scopedSetup({ team: "sales", region: "eu" });
  expect(await recallContents(both, { namespace_id: ns2.id, query: "quarterly target team" })).toEqual([SALES_EU]);
});

test("a scoped key cannot read a memory outside its scopes by id", async () => {
  const { scoped, byContent } = await scopedSetup({ team: "sales" });
  expect((await api("GET", `/memories/${byContent[SALES]}`, { key: scoped })).status).toBe(200);
  expect((await api("GET", `/memories/${byContent[ENG]}`, { key: scoped })).status).toBe(404);
  expect((await api("GET", `/memories/${byContent[OPEN]}`, { key: scoped })).status).toBe(404);
});

test("what a scoped key remembers carries its scopes, plus any the request adds", async () => {
  const { admin, ns, scoped } = await scopedSetup({ team: "sales" });
  const plain = await api("POST", "/remember", { key: scoped, body: { namespace_id: ns.id, content: "Sales offsite is in May." } });
  expect(plain.body.data.scopes).toEqual({ team: "sales" });
  const narrowed = await api("POST", "/remember", { key: scoped, body: { namespace_id: ns.id, content: "EU pipeline review on Friday.", scopes: { region: "eu", team: "sales" } } });
  expect(narrowed.body.data.scopes).toEqual({ team: "sales", region: "eu" });
  const seenByAdmin = await api("POST", "/recall", { key: admin, body: { namespace_id: ns.id, query: "offsite in May", scopes: { team: "sales" } } });
  expect(seenByAdmin.body.data[0].content).toBe("Sales offsite is in May.");
});

test("a request scope that contradicts the key's → 403 on every operation, nothing changes", async () => {
  const { ns, scoped } = await scopedSetup({ team: "sales" });
  const before = await storedCounts(ns.id);
  const contradicting = { team: "eng" };
  for (const [path, body] of [
    ["/remember", { content: "x", scopes: contradicting }],
    ["/remember", { memories: [{ content: "ok" }, { content: "x", scopes: contradicting }] }],
    ["/recall", { query: "target", scopes: contradicting }],
    ["/forget", { scopes: contradicting }],
  ] as const) {
    const response = await api("POST", path, { key: scoped, body: { namespace_id: ns.id, ...body } });
    expect(response.status, path).toBe(403);
    expect(response.body.error.code).toBe("FORBIDDEN");
    expect(response.body.error.message).toContain("team=sales");
  }
  expect(await storedCounts(ns.id)).toEqual(before);
});

test("a scoped key forgets only inside its scopes, even with all: true", async () => {
  const { admin, ns, scoped } = await scopedSetup({ team: "sales" });
  const response = await api("POST", "/forget", { key: scoped, body: { namespace_id: ns.id, all: true } });
  expect(response.body.data.deleted).toBe(2);
  expect((await recallContents(admin, { namespace_id: ns.id, query: "quarterly target team" })).sort()).toEqual([ENG, OPEN].sort());
});
