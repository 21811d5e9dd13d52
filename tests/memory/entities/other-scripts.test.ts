// Entities of text in scripts other than Latin (issue 54, item 6): the English models find none, so names in cased
// scripts are read by their capitals and dates by their digits (lib/memory/entities/extract-entities.ts); a memory
// in Greek is then found through its entities as an English one is.
import { expect, test } from "vitest";
import { extractEntities } from "@/lib/memory/entities/extract-entities";
import { api } from "../../helpers/api";
import { createNamespace, createTenant } from "../../helpers/fixtures";
import { rememberAll } from "../../helpers/memory";

const said = { occurredAt: new Date("2026-11-30T12:00:00Z") };
const found = (text: string) => extractEntities(text, said).map((e) => [e.kind, e.name, e.key, e.tentative] as const);

test("names in Greek and Cyrillic by their capitals, dates in any script by their digits", () => {
  expect(found("Η Μαρία μένει στην Αθήνα από το 2023.")).toEqual([
    ["other", "Μαρία", "μαρία", false],
    ["other", "Αθήνα", "αθήνα", false],
    ["date", "2023", "2023", false],
  ]);
  // A capital opening a sentence is only tentative, as in English.
  expect(found("Мария живёт в Москве.")).toEqual([
    ["other", "Мария", "мария", true],
    ["other", "Москве", "москве", false],
  ]);
  expect(found("我在2023年5月搬到北京，2024年1月15日开始工作。")).toEqual([
    ["date", "May 2023", "2023-05", false],
    ["date", "15 January 2024", "2024-01-15", false],
  ]);
  expect(found("2023年13月")).toEqual([]);
  // English text is read as before: no name twice, no year twice.
  expect(found("Maria moved to Lisbon in 2023.").filter(([kind]) => kind === "date")).toEqual([
    ["date", "2023", "2023", false],
  ]);
});

test("a Greek memory is found by its place and its year through the entities filter", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const [greek] = await rememberAll(key, ns.id, [
    { content: "Η Μαρία μένει στην Αθήνα από το 2023." },
    { content: "Ο Νίκος δουλεύει στη Θεσσαλονίκη." },
  ]);
  for (const entity of ["Αθήνα", "αθήνα", "2023"]) {
    const response = await api("POST", "/recall", {
      key,
      body: { namespace_id: ns.id, query: "πού μένει;", entities: [entity] },
    });
    expect(response.status).toBe(200);
    expect(
      response.body.data.map((m: { memory_id: string }) => m.memory_id),
      entity,
    ).toEqual([greek.id]);
  }
}, 180_000); // the first test of the file waits for the embedding model to load
