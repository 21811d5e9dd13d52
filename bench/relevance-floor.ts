// The relevance floor (lib/memory/search/ranking.ts, RELEVANCE_FLOOR), measured: for each candidate floor, what it
// costs on the three benchmark sets and what it drops for queries with no relevant answer. SciFact and MS MARCO:
// the judged pairs that share no word with their query and the similarity of each (a floor of evidence can only
// drop those); LoCoMo dev, in the conversation form: frac@10 and recall@10 at each floor, and a no-answer probe
// (one conversation's questions against another's memories). Every candidate runs through searchChunks as
// recall does (hybrid), on the same loaded namespaces.
//
//   BENCH_DATASETS_DIR=/work/shared/datasets node --import tsx bench/relevance-floor.ts
//
// BENCH_EMBEDDINGS_CACHE: the embeddings cache file (default bench/.cache/embeddings.jsonl). BENCH_FLOOR_PART:
// `pairs` (SciFact and MS MARCO) or `locomo` measures one part (two processes: this machine is shared),
// `report` prints the tables of both parts' results; unset, both parts run. Writes
// bench/results/relevance-floor-<part>.json.
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-floor-"));
process.env.MEMGW_PROCESS_ROLE = "benchmark";

const { closeDatabase } = await import("@/lib/db");
const { closeEmbedder, embedder } = await import("@/lib/memory/embeddings");
const { remember: rememberOnce } = await import("@/lib/memory/write/remember");
const { searchChunks } = await import("@/lib/memory/search/search");
const { createNamespace } = await import("@/lib/namespaces/namespaces");
const { benchPrincipal } = await import("./quality");
const { conversationSets, loadConversation } = await import("./conversations");
const { datasetsDir, loadDataset } = await import("./lib/beir");
const { CachedEmbeddingProvider } = await import("./lib/cached-embedder");
type RelevanceFloor = import("@/lib/memory/search/ranking").RelevanceFloor;

interface Candidate {
  name: string;
  /** undefined: min_score 0, every match scoring above 0 (no floor). */
  floor?: RelevanceFloor;
}

const CANDIDATES: Candidate[] = [
  { name: "none (min_score 0)" },
  ...[0.25, 0.3, 0.35, 0.4].map((s) => ({
    name: `evidence, similarity ≥ ${s}`,
    floor: { minScore: 0, minSimilarity: s },
  })),
  ...[0.02, 0.05].map((m) => ({
    name: `score ≥ ${m}`,
    floor: { minScore: m, minSimilarity: -Infinity },
  })),
];

const LOAD_BATCH = 20;
const root = path.resolve(import.meta.dirname, "..");
const dir = datasetsDir();
const cache = new CachedEmbeddingProvider(
  embedder(),
  process.env.BENCH_EMBEDDINGS_CACHE ?? path.join(import.meta.dirname, ".cache", "embeddings.jsonl"),
);
(globalThis as { __memgwEmbedder?: unknown }).__memgwEmbedder = cache;
const principal = await benchPrincipal();
const log = (line: string) => console.log(line);

/**
 * remember, again when its transaction outlasted the database's timeout (Prisma P2028; this machine is shared
 * and can stall a write for seconds): it is all or nothing, so a retry stores each memory once.
 */
async function remember(...args: Parameters<typeof rememberOnce>) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await rememberOnce(...args);
    } catch (error) {
      // P2010 too: a retry begun while the expired transaction was still rolling back can trip over it.
      if (!["P2028", "P2010"].includes((error as { code?: string }).code ?? "") || attempt === 8) throw error;
      log(`  (a remember outlasted the transaction timeout; attempt ${attempt + 1})`);
      await new Promise((resolve) => setTimeout(resolve, 5_000));
    }
  }
}

const search = (namespaceId: string, query: string, topK: number, candidate: Candidate, queryVector?: number[]) =>
  searchChunks({
    orgId: principal.orgId,
    namespaceId,
    query,
    topK,
    queryVector,
    ...(candidate.floor ? { relevanceFloor: candidate.floor } : { minScore: 0 }),
  });

interface SetFigures {
  set: string;
  candidate: string;
  ndcg10?: number;
  recall10: number;
  recall100?: number;
  frac10?: number;
  /** Matches returned per query (top 10). */
  matches10: number;
}

const part = process.env.BENCH_FLOOR_PART;
const results: SetFigures[] = [];
const probes: { probe: string; candidate: string; matches10: number; emptyShare: number; queries: number }[] = [];

// SciFact and MS MARCO: a floor of evidence can only drop a relevant memory that has none, and dropping others
// never moves a relevant one down; so its cost on these sets is in the judged pairs (query, relevant document)
// without evidence. Each relevant document is stored, and searched for with its query (min_score 0, filtered to
// that document): whether it shares a word with the query, and its similarity. Every SciFact pair; a fixed
// sample of MS MARCO's (4,102 pairs, too many to embed on a shared machine in one sitting).
const MSMARCO_PAIRS = 400;
const pairRows: { set: string; pairs: number; queries: number; withoutWords: number; similarities: number[] }[] = [];
for (const name of part === undefined || part === "pairs" ? ["scifact", "msmarco-trecdl-subset"] : []) {
  const dataset = loadDataset(dir, name);
  let pairs = dataset.queries.flatMap((q) =>
    [...(dataset.qrels.get(q.id) ?? new Map<string, number>())]
      .filter(([, grade]) => grade > 0)
      .map(([doc]) => ({ query: q, doc })),
  );
  if (name !== "scifact") {
    // A fixed pseudo-random sample (the same on every run).
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    pairs = pairs
      .map((pair) => ({ pair, key: next() }))
      .sort((a, b) => a.key - b.key)
      .slice(0, MSMARCO_PAIRS)
      .map((p) => p.pair);
  }
  const wanted = new Set(pairs.map((p) => p.doc));
  const docs = dataset.docs.filter((d) => wanted.has(d.id));
  const namespace = await createNamespace(principal, { name: `bench-floor-${name}` });
  const started = performance.now();
  for (let i = 0; i < docs.length; i += LOAD_BATCH) {
    const batch = docs.slice(i, i + LOAD_BATCH);
    await remember(
      principal,
      { namespace_id: namespace.id },
      batch.map((d) => ({ content: d.title ? `${d.title}\n${d.text}` : d.text, metadata: { doc_id: d.id } })),
    );
    if ((i / LOAD_BATCH) % 5 === 0)
      log(
        `  ${name}: stored ${i + batch.length}/${docs.length} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
  }
  let withoutWords = 0;
  const similarities: number[] = [];
  for (const { query, doc } of pairs) {
    const [match] = await searchChunks({
      orgId: principal.orgId,
      namespaceId: namespace.id,
      query: query.text,
      topK: 1,
      minScore: 0,
      metadata: { doc_id: doc },
    });
    if (match && match.lexical > 0) continue;
    withoutWords++;
    similarities.push(match?.cosine ?? 0);
  }
  const row = {
    set: name,
    pairs: pairs.length,
    queries: new Set(pairs.map((p) => p.query.id)).size,
    withoutWords,
    similarities: similarities.sort((a, b) => a - b),
  };
  pairRows.push(row);
  log(
    `  ${name}: ${row.pairs} relevant pairs (${row.queries} queries), ${withoutWords} share no word with the query; ` +
      `their similarities: ${row.similarities.map((x) => x.toFixed(3)).join(", ")}`,
  );
}

const [dev] = conversationSets(dir);
if (part === undefined || part === "locomo") {
  const loaded = [];
  // The conversation form (role = the speaker's name), as the API stores a conversation.
  for (const conversation of dev.conversations)
    loaded.push(await loadConversation(principal, conversation, "conversation"));
  for (const candidate of CANDIDATES) {
    let frac = 0;
    let all = 0;
    let matches10 = 0;
    let questions = 0;
    for (const [index, conversation] of dev.conversations.entries()) {
      const { namespaceId, turnOf } = loaded[index];
      for (const question of conversation.questions) {
        const matches = await search(namespaceId, question.text, 10, candidate);
        const found = new Set(matches.map((m) => turnOf.get(m.memoryId)));
        const share = question.evidence.filter((id) => found.has(id)).length / question.evidence.length;
        frac += share;
        all += share === 1 ? 1 : 0;
        matches10 += matches.length;
        questions++;
      }
    }
    const row = {
      set: "locomo-dev (conversation)",
      candidate: candidate.name,
      frac10: frac / questions,
      recall10: all / questions,
      matches10: matches10 / questions,
    };
    results.push(row);
    log(
      `  ${row.set}, ${candidate.name}: frac@10 ${row.frac10.toFixed(4)} recall@10 ${row.recall10.toFixed(4)} ` +
        `matches@10 ${row.matches10.toFixed(2)}`,
    );
  }
  // No-answer probe: each conversation's first 40 questions asked of the next conversation (other people's lives).
  for (const candidate of CANDIDATES) {
    let matches = 0;
    let empty = 0;
    let asked = 0;
    for (const [index, conversation] of dev.conversations.entries()) {
      const other = loaded[(index + 1) % loaded.length];
      for (const question of conversation.questions.slice(0, 40)) {
        const found = (await search(other.namespaceId, question.text, 10, candidate)).length;
        matches += found;
        empty += found === 0 ? 1 : 0;
        asked++;
      }
    }
    const row = {
      probe: "LoCoMo questions → another conversation",
      candidate: candidate.name,
      matches10: matches / asked,
      emptyShare: empty / asked,
      queries: asked,
    };
    probes.push(row);
    log(
      `  probe ${row.probe}, ${candidate.name}: ` +
        `matches@10 ${row.matches10.toFixed(2)}, none ${row.emptyShare.toFixed(3)}`,
    );
  }
}

const commit = execSync("git rev-parse --short HEAD", { cwd: root }).toString().trim();
const meta = { commit, date: new Date().toISOString(), cpu: os.cpus()[0]?.model.trim(), cores: os.cpus().length };
fs.mkdirSync(path.join(root, "bench/results"), { recursive: true });
const resultsFile = (name: string) => path.join(root, `bench/results/relevance-floor-${name}.json`);
if (part !== "report")
  fs.writeFileSync(resultsFile(part ?? "all"), JSON.stringify({ ...meta, results, probes, pairRows }, null, 2) + "\n");
else
  for (const name of ["pairs", "locomo"]) {
    if (!fs.existsSync(resultsFile(name))) continue;
    const saved = JSON.parse(fs.readFileSync(resultsFile(name), "utf8"));
    results.push(...saved.results);
    probes.push(...saved.probes);
    pairRows.push(...(saved.pairRows ?? []));
  }

const none = (set: string) => results.find((r) => r.set === set && r.candidate === CANDIDATES[0].name)!;
console.log("\n| candidate | " + [...new Set(results.map((r) => r.set))].join(" | ") + " |");
for (const candidate of CANDIDATES) {
  const cells = [...new Set(results.map((r) => r.set))].map((set) => {
    const r = results.find((x) => x.set === set && x.candidate === candidate.name)!;
    const base = none(set);
    const main = r.ndcg10 !== undefined ? r.ndcg10 : r.frac10!;
    const delta = main - (base.ndcg10 !== undefined ? base.ndcg10 : base.frac10!);
    const signed = `${delta >= 0 ? "+" : ""}${delta.toFixed(3)}`;
    return `${main.toFixed(3)} (${signed}), r@10 ${r.recall10.toFixed(3)}, ${r.matches10.toFixed(2)}/q`;
  });
  console.log(`| ${candidate.name} | ${cells.join(" | ")} |`);
}
console.log("\n| candidate | " + [...new Set(probes.map((p) => p.probe))].join(" | ") + " |");
for (const candidate of CANDIDATES) {
  const cells = [...new Set(probes.map((p) => p.probe))].map((name) => {
    const p = probes.find((x) => x.probe === name && x.candidate === candidate.name)!;
    const base = probes.find((x) => x.probe === name && x.candidate === CANDIDATES[0].name)!;
    const dropped = ((1 - p.matches10 / base.matches10) * 100).toFixed(1);
    return `${p.matches10.toFixed(2)}/q (${dropped}% dropped), none ${(p.emptyShare * 100).toFixed(1)}%`;
  });
  console.log(`| ${candidate.name} | ${cells.join(" | ")} |`);
}

await closeEmbedder();
await closeDatabase();
fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
