import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { assertDatasetsPresent, datasetsDir, loadDataset } from "../bench/lib/beir";

const root = path.resolve(import.meta.dirname, "..");

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
