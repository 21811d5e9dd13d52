import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { conversationSets, evidenceCeilings } from "../../bench/conversations";
import { assertDatasetsPresent, datasetsDir, loadDataset } from "../../bench/lib/beir";

const root = path.resolve(import.meta.dirname, "../..");

test("the benchmark reads its datasets from BENCH_DATASETS_DIR, resolved from the repository root", () => {
  expect(datasetsDir({})).toBe(path.join(root, "bench/.cache/datasets"));
  expect(datasetsDir({ BENCH_DATASETS_DIR: "data/beir" })).toBe(path.join(root, "data/beir"));
  expect(datasetsDir({ BENCH_DATASETS_DIR: "/srv/datasets" })).toBe("/srv/datasets");
});

test("a missing dataset stops the benchmark with the folder it looked in and how to obtain it", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-datasets-"));
  try {
    expect(() => assertDatasetsPresent(dir, ["scifact", "msmarco-trecdl-subset"])).toThrow(
      new RegExp(`not found: ${path.join(dir, "scifact")}, ${path.join(dir, "msmarco-trecdl-subset")}\\.`),
    );
    expect(() => loadDataset(dir, "scifact")).toThrow(
      /node scripts\/fetch-datasets\.mjs.*docs\/benchmark-datasets\.md/,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a dataset in BEIR layout loads with its judged queries only", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-datasets-"));
  try {
    const set = path.join(dir, "tiny");
    fs.mkdirSync(path.join(set, "qrels"), { recursive: true });
    const lines = (rows: object[]) => rows.map((row) => JSON.stringify(row)).join("\n") + "\n";
    fs.writeFileSync(
      path.join(set, "corpus.jsonl"),
      lines([
        { _id: "d1", title: "T", text: "x" },
        { _id: "d2", text: "y" },
      ]),
    );
    fs.writeFileSync(
      path.join(set, "queries.jsonl"),
      lines([
        { _id: "q1", text: "judged" },
        { _id: "q2", text: "not" },
      ]),
    );
    fs.writeFileSync(path.join(set, "qrels/test.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td2\t0\n");

    const dataset = loadDataset(dir, "tiny");
    expect(dataset.docs).toEqual([
      { id: "d1", title: "T", text: "x" },
      { id: "d2", title: "", text: "y" },
    ]);
    expect(dataset.queries).toEqual([{ id: "q1", text: "judged" }]);
    expect([...dataset.qrels.get("q1")!]).toEqual([["d1", 2]]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("LoCoMo loads with its sessions in order, dated, and the questions of categories 1–4 with their turns", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-datasets-"));
  try {
    expect(() => conversationSets(dir)).toThrow(/locomo-dev\.json.*node scripts\/fetch-datasets\.mjs locomo/s);
    const turn = (session: number, index: number, speaker: string) => ({
      speaker,
      dia_id: `D${session}:${index}`,
      text: `turn ${index} of session ${session}`,
    });
    const conversation = {
      sample_id: "conv-1",
      conversation: {
        speaker_a: "Ann",
        speaker_b: "Bob",
        session_2_date_time: "9:05 am on 1 June, 2023",
        session_2: [turn(2, 1, "Bob"), turn(2, 2, "Ann")],
        session_1_date_time: "1:56 pm on 8 May, 2023",
        session_1: [turn(1, 1, "Ann"), turn(1, 2, "Bob")],
      },
      qa: [
        { question: "single", answer: "x", evidence: ["D1:2"], category: 4 },
        { question: "two in one entry, one malformed", answer: "x", evidence: ["D1:1; D2:2", "D:2:1"], category: 1 },
        { question: "adversarial", answer: "x", evidence: ["D1:1"], category: 5 },
        { question: "no such turn", answer: "x", evidence: ["D9:9"], category: 2 },
      ],
    };
    fs.mkdirSync(path.join(dir, "locomo-dev"));
    fs.writeFileSync(path.join(dir, "locomo-dev/locomo-dev.json"), JSON.stringify([conversation]));
    const [dev] = conversationSets(dir);
    const [loaded] = dev.conversations;
    expect(loaded.sessions.map((s) => [s.id, s.occurredAt.toISOString(), s.turns.map((t) => t.diaId)])).toEqual([
      ["session_1", "2023-05-08T13:56:00.000Z", ["D1:1", "D1:2"]],
      ["session_2", "2023-06-01T09:05:00.000Z", ["D2:1", "D2:2"]],
    ]);
    expect(loaded.questions).toEqual([
      { text: "single", answer: "x", category: 4, evidence: ["D1:2"] },
      { text: "two in one entry, one malformed", answer: "x", category: 1, evidence: ["D1:1", "D2:2", "D2:1"] },
    ]);

    // With all ten conversations, the last five are held out and reported apart.
    fs.mkdirSync(path.join(dir, "locomo"));
    const ten = Array.from({ length: 10 }, (_, i) => ({ ...conversation, sample_id: `conv-${i + 1}` }));
    fs.writeFileSync(path.join(dir, "locomo/locomo10.json"), JSON.stringify(ten));
    expect(conversationSets(dir).map((s) => [s.name, s.conversations.map((c) => c.id)])).toEqual([
      ["dev (1–5)", ["conv-1", "conv-2", "conv-3", "conv-4", "conv-5"]],
      ["held-out (6–10)", ["conv-6", "conv-7", "conv-8", "conv-9", "conv-10"]],
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the answer ceiling scores LoCoMo's evidence turns against the gold answers, whole and by best sentence", () => {
  const occurredAt = new Date("2023-05-08T13:56:00Z");
  const set = {
    name: "dev (1–5)",
    conversations: [
      {
        id: "conv-1",
        sessions: [
          {
            id: "session_1",
            occurredAt,
            turns: [
              { speaker: "Ann", diaId: "D1:1", text: "I went to Lisbon. It rained all week." },
              { speaker: "Bob", diaId: "D1:2", text: "I adopted a dog named Coco." },
            ],
          },
        ],
        questions: [
          { text: "Where did Ann go?", category: 4, evidence: ["D1:1"], answer: "Lisbon" },
          { text: "When did Ann go to Lisbon?", category: 2, evidence: ["D1:1"], answer: "8 May 2023" },
          { text: "What did Bob adopt?", category: 4, evidence: ["D1:2"], answer: "a cat" },
        ],
      },
    ],
  };
  const [whole, sentence] = evidenceCeilings(set, 1);
  const singleHop = (c: typeof whole) => c.categories.find((k) => k.category === "single-hop")!;
  const temporal = (c: typeof whole) => c.categories.find((k) => k.category === "temporal")!;
  // "Lisbon" is in the turn, "cat" in none: half the single-hop gold words are there.
  expect(singleHop(whole).present).toBeCloseTo(0.5);
  // The day the turn was said counts, as the answerer resolves dates.
  expect(temporal(whole).present).toBe(1);
  // The best sentence is shorter than the turn it comes from: the same words, a higher F1.
  expect(singleHop(sentence).present).toBeCloseTo(0.5);
  expect(singleHop(sentence).f1).toBeGreaterThan(singleHop(whole).f1);
  expect(whole.overall.present).toBeCloseTo((1 + 1 + 0) / 3);
});
