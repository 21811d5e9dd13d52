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

test("names in Chinese, Japanese, Korean and Thai by the honorific or suffix that marks them", () => {
  expect(found("昨日田中さんに会った。山田先生は大阪府に住んでいます。")).toEqual([
    ["person", "田中", "田中", false],
    ["person", "山田", "山田", false],
    ["place", "大阪府", "大阪府", false],
  ]);
  // ICU cuts 张伟 in two: the surname joins it; a preposition before a name does not (给|刘|先生).
  expect(found("张伟老师在上海工作。我给刘先生打电话。")).toEqual([
    ["person", "张伟", "张伟", false],
    ["person", "刘", "刘", false],
  ]);
  expect(found("广东省深圳市")).toEqual([
    ["place", "广东省", "广东省", false],
    ["place", "深圳市", "深圳市", false],
  ]);
  expect(found("김민수 씨는 서울에 살아요. 선생님이 왔어요.")).toEqual([["person", "김민수", "김민수", false]]);
  expect(found("คุณสมชายอาศัยอยู่ที่เชียงใหม่")).toEqual([["person", "สมชาย", "สมชาย", false]]);
  // A title without a name, a word that merely ends as a city does (都市, "city"), and unmarked names give nothing.
  expect(found("学校の先生が来た。他是都市人。我和张伟一起吃饭。")).toEqual([]);
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

test("a Japanese memory is found through the person it names, by the filter and by a question naming her", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const [tanaka] = await rememberAll(key, ns.id, [
    { content: "田中さんは去年横浜市に引っ越しました。" },
    { content: "会議は毎週月曜日の朝に行われます。" },
  ]);
  const filtered = await api("POST", "/recall", {
    key,
    body: { namespace_id: ns.id, query: "どこに住んでいますか", entities: ["田中"] },
  });
  expect(filtered.status).toBe(200);
  expect(filtered.body.data.map((m: { memory_id: string }) => m.memory_id)).toEqual([tanaka.id]);
  const listed = await api("GET", `/entities?namespace_id=${ns.id}`, { key });
  expect(listed.status).toBe(200);
  expect(listed.body.data.map((e: { kind: string; name: string }) => [e.kind, e.name]).sort()).toEqual([
    ["person", "田中"],
    ["place", "横浜市"],
  ]);
  const asked = await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "田中さんはどこ？" } });
  expect(asked.status).toBe(200);
  expect(asked.body.data[0]?.memory_id).toBe(tanaka.id);
}, 60_000);
