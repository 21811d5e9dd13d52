import fs from "node:fs";
import path from "node:path";

export interface Dataset {
  name: string;
  docs: { id: string; title: string; text: string }[];
  queries: { id: string; text: string }[];
  /** query id → doc id → graded relevance */
  qrels: Map<string, Map<string, number>>;
}

const readJsonl = (file: string) =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));

const repositoryRoot = path.resolve(import.meta.dirname, "../..");

/** The datasets directory: BENCH_DATASETS_DIR (relative to the repository root), bench/.cache/datasets by default. */
export function datasetsDir(env: Record<string, string | undefined> = process.env): string {
  return path.resolve(repositoryRoot, env.BENCH_DATASETS_DIR || "bench/.cache/datasets");
}

/** The dataset's query file, or undefined when the folder does not hold a dataset in BEIR layout. */
function queryFileOf(dir: string): string | undefined {
  const present = (file: string) => fs.existsSync(path.join(dir, file));
  if (!present("corpus.jsonl") || !present("qrels/test.tsv")) return undefined;
  return ["queries.test.jsonl", "queries.jsonl"].find(present);
}

/** Fails, saying how to obtain them, unless every named dataset is in `root`: before any slow set-up starts. */
export function assertDatasetsPresent(root: string, names: string[]): void {
  const missing = names.map((name) => path.join(root, name)).filter((dir) => !queryFileOf(dir));
  if (missing.length === 0) return;
  throw new Error(
    [
      `Benchmark dataset${missing.length > 1 ? "s" : ""} not found: ${missing.join(", ")}.`,
      "Each needs corpus.jsonl, queries.test.jsonl (or queries.jsonl) and qrels/test.tsv (BEIR layout).",
      "Download them with `node scripts/fetch-datasets.mjs` (see docs/benchmark-datasets.md), or point",
      "BENCH_DATASETS_DIR at a directory that holds them.",
    ].join("\n"),
  );
}

/** A dataset in BEIR layout: `<root>/<name>/{corpus.jsonl, queries(.test).jsonl, qrels/test.tsv}`. */
export function loadDataset(root: string, name: string): Dataset {
  assertDatasetsPresent(root, [name]);
  const dir = path.join(root, name);
  const queryFile = queryFileOf(dir)!;
  const qrels = new Map<string, Map<string, number>>();
  for (const line of fs.readFileSync(path.join(dir, "qrels/test.tsv"), "utf8").split("\n").slice(1)) {
    const [query, doc, score] = line.trim().split("\t");
    if (!query || Number(score) <= 0) continue;
    if (!qrels.has(query)) qrels.set(query, new Map());
    qrels.get(query)!.set(doc, Number(score));
  }
  const queries = readJsonl(path.join(dir, queryFile))
    .map((q) => ({ id: String(q._id), text: String(q.text) }))
    .filter((q) => qrels.has(q.id));
  const docs = readJsonl(path.join(dir, "corpus.jsonl")).map((d) => ({
    id: String(d._id),
    title: String(d.title ?? ""),
    text: String(d.text ?? ""),
  }));
  return { name, docs, queries, qrels };
}

/** nDCG@k with graded gains (2^rel − 1) and recall@k, as BEIR computes them. */
export function ndcgAt(ranked: string[], relevant: Map<string, number>, k: number): number {
  const dcg = ranked
    .slice(0, k)
    .reduce((sum, doc, i) => sum + (2 ** (relevant.get(doc) ?? 0) - 1) / Math.log2(i + 2), 0);
  const ideal = [...relevant.values()]
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, rel, i) => sum + (2 ** rel - 1) / Math.log2(i + 2), 0);
  return ideal ? dcg / ideal : 0;
}

export function recallAt(ranked: string[], relevant: Map<string, number>, k: number): number {
  const found = ranked.slice(0, k).filter((doc) => relevant.has(doc)).length;
  return relevant.size ? found / relevant.size : 0;
}
