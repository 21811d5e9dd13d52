// What a key with scopes may learn through entities: never a name only memories outside its scopes carry.
import { expect, test } from "vitest";
import { api } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";

async function remember(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/remember", { key, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

test("a key with scopes does not learn a speaker's full name that only hidden memories carry", async () => {
  const tenant = await createTenant("Alias leak");
  const ns = await createNamespace(tenant.key);
  await remember(tenant.key, {
    namespace_id: ns.id,
    session_id: "s1",
    scopes: { team: "b" },
    messages: [{ role: "Melanie", content: "I paint." }],
  });
  await remember(tenant.key, { namespace_id: ns.id, scopes: { team: "a" }, content: "Mel came to the party." });
  const teamA = await createKey(tenant.org.id, {
    permissions: ["NAMESPACE_READ"],
    scopes: { team: "a" },
    namespaceIds: [ns.id],
  });
  const listed = await api("GET", `/entities?namespace_id=${ns.id}`, { key: teamA.secret });
  expect(listed.status).toBe(200);
  expect(listed.body.data.map((e: { name: string }) => e.name)).toEqual(["Mel"]);
  expect(JSON.stringify(listed.body)).not.toContain("Melanie");
  const recalled = await api("POST", "/recall", {
    key: teamA.secret,
    body: { namespace_id: ns.id, query: "Who came to the party?" },
  });
  expect(JSON.stringify(recalled.body)).not.toContain("Melanie");
  // Searching by the hidden full name finds nothing for this key.
  const byName = await api("POST", "/recall", {
    key: teamA.secret,
    body: { namespace_id: ns.id, query: "party", entities: ["Melanie"] },
  });
  expect(byName.body.data).toEqual([]);

  // Where the speaker's turns are as readable as the short name, the two are one entity.
  await remember(tenant.key, {
    namespace_id: ns.id,
    session_id: "s2",
    scopes: { team: "c" },
    messages: [{ role: "Jonathan", content: "I paint too." }],
  });
  await remember(tenant.key, { namespace_id: ns.id, scopes: { team: "c" }, content: "Jon came by with cake." });
  const full = await api("GET", `/entities?namespace_id=${ns.id}&q=jon`, { key: tenant.key });
  expect(full.body.data.map((e: { name: string; aliases: string[] }) => [e.name, e.aliases])).toEqual([
    ["Jonathan", ["jon"]],
  ]);
});

test("a sentence-opening name is confirmed only by a memory written with it that its readers may read", async () => {
  const tenant = await createTenant("Tentative names");
  const ns = await createNamespace(tenant.key);
  // One write: the memory naming Max mid-sentence is in another team's scope.
  await remember(tenant.key, {
    namespace_id: ns.id,
    memories: [
      { content: "Max chewed through the garden hose.", scopes: { team: "a" } },
      { content: "Priya adopted a beagle named Max.", scopes: { team: "b" } },
    ],
  });
  const teamA = await createKey(tenant.org.id, {
    permissions: ["NAMESPACE_READ"],
    scopes: { team: "a" },
    namespaceIds: [ns.id],
  });
  const namesFor = async (key: string) =>
    (await api("GET", `/entities?namespace_id=${ns.id}`, { key })).body.data.map((e: { name: string }) => e.name);
  expect(await namesFor(teamA.secret)).toEqual([]);
  const byName = await api("POST", "/recall", {
    key: teamA.secret,
    body: { namespace_id: ns.id, query: "hose", entities: ["Max"] },
  });
  expect(byName.body.data).toEqual([]);

  // Written with a memory at least as narrowly scoped, the same sentence links the name for team a too.
  await remember(tenant.key, {
    namespace_id: ns.id,
    memories: [
      { content: "Max dug up the tulips.", scopes: { team: "a" } },
      { content: "Our beagle Max loves the garden.", scopes: { team: "a", owner: "priya" } },
    ],
  });
  const hose = await api("POST", "/recall", {
    key: teamA.secret,
    body: { namespace_id: ns.id, query: "tulips", entities: ["Max"] },
  });
  // Max's memories team a may read, the one about tulips first.
  expect(hose.body.data.map((m: { content: string }) => m.content)).toEqual([
    "Max dug up the tulips.",
    "Our beagle Max loves the garden.",
  ]);
});
