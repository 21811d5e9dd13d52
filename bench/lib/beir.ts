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
  fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));

/** A dataset in BEIR layout under ../shared/datasets/<name>. */
export function loadDataset(root: string, name: string): Dataset {
  const dir = path.join(root, name);
  const queryFile = fs.existsSync(path.join(dir, "queries.test.jsonl")) ? "queries.test.jsonl" : "queries.jsonl";
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
  const docs = readJsonl(path.join(dir, "corpus.jsonl")).map((d) => ({ id: String(d._id), title: String(d.title ?? ""), text: String(d.text ?? "") }));
  return { name, docs, queries, qrels };
}

/** nDCG@k with graded gains (2^rel − 1) and recall@k, as BEIR computes them. */
export function ndcgAt(ranked: string[], relevant: Map<string, number>, k: number): number {
  const dcg = ranked.slice(0, k).reduce((sum, doc, i) => sum + (2 ** (relevant.get(doc) ?? 0) - 1) / Math.log2(i + 2), 0);
  const ideal = [...relevant.values()].sort((a, b) => b - a).slice(0, k).reduce((sum, rel, i) => sum + (2 ** rel - 1) / Math.log2(i + 2), 0);
  return ideal ? dcg / ideal : 0;
}

export function recallAt(ranked: string[], relevant: Map<string, number>, k: number): number {
  const found = ranked.slice(0, k).filter((doc) => relevant.has(doc)).length;
  return relevant.size ? found / relevant.size : 0;
}
