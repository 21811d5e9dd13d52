// The relevance floor (lib/memory/ranking.ts, RELEVANCE_FLOOR), measured: for each candidate floor, what it
// costs on the three benchmark sets (SciFact and MS MARCO nDCG@10, recall@10 and recall@100; LoCoMo dev
// frac@10 and recall@10, stored as one memory per turn and in the conversation form) and what it drops for
// queries with no relevant answer (one set's queries against another set's memories). Every candidate runs
// through searchChunks as recall does (hybrid), on the same loaded namespaces.
//
//   BENCH_DATASETS_DIR=/work/shared/datasets node --import tsx bench/relevance-floor.ts
//
// BENCH_EMBEDDINGS_CACHE: the embeddings cache file (default bench/.cache/embeddings.jsonl). BENCH_FLOOR_PART:
// `beir` (SciFact, MS MARCO and the probes) or `locomo` measures one part (two processes: this machine is shared),
// `report` prints the tables of both parts' results; unset, both parts run. Writes
// bench/results/relevance-floor-<part>.json.
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-floor-"));
process.env.MEMGW_PROCESS_ROLE = "benchmark";

const { closeDatabase, db } = await import("@/lib/db");
const { Prisma } = await import("@/lib/generated/prisma/client");
const { closeEmbedder, embedder } = await import("@/lib/memory/embeddings");
const { memoryItems, remember: rememberOnce } = await import("@/lib/memory/remember");
const { RememberBody } = await import("@/lib/memory/schemas");
const { searchChunks } = await import("@/lib/memory/search");
const { createNamespace } = await import("@/lib/namespaces/namespaces");
const { benchPrincipal } = await import("./quality");
const { conversationSets } = await import("./conversations");
const { datasetsDir, loadDataset, ndcgAt, recallAt } = await import("./lib/beir");
const { CachedEmbeddingProvider } = await import("./lib/cached-embedder");
type RelevanceFloor = import("@/lib/memory/ranking").RelevanceFloor;
type Conversation = import("./conversations").Conversation;

interface Candidate {
  name: string;
  /** undefined: min_score 0, every match scoring above 0 (no floor). */
  floor?: RelevanceFloor;
}

const CANDIDATES: Candidate[] = [
  { name: "none (min_score 0)" },
  ...[0.2, 0.25, 0.3, 0.35, 0.4].map((s) => ({
    name: `evidence, similarity ≥ ${s}`,
    floor: { minScore: 0, minSimilarity: s },
  })),
  ...[0.01, 0.02, 0.05].map((m) => ({
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
      if ((error as { code?: string }).code !== "P2028" || attempt === 5) throw error;
      log(`  (a remember outlasted the transaction timeout; attempt ${attempt + 1})`);
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

// BEIR sets.
const beir: Record<string, { namespaceId: string; queries: { text: string; vector: number[] }[] }> = {};
for (const name of part === undefined || part === "beir" ? ["scifact", "msmarco-trecdl-subset"] : []) {
  const dataset = loadDataset(dir, name);
  // Small batches: on a busy machine a remember of 100 abstracts outlasts the database's transaction timeout.
  const namespace = await createNamespace(principal, { name: `bench-floor-${name}` });
  const started = performance.now();
  for (let i = 0; i < dataset.docs.length; i += LOAD_BATCH) {
    const batch = dataset.docs.slice(i, i + LOAD_BATCH);
    await remember(
      principal,
      { namespace_id: namespace.id },
      batch.map((d) => ({ content: d.title ? `${d.title}\n${d.text}` : d.text, metadata: { doc_id: d.id } })),
    );
    if ((i / LOAD_BATCH) % 20 === 0)
      log(
        `  ${name}: loaded ${i + batch.length}/${dataset.docs.length} ` +
          `(${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
  }
  await (await db()).$executeRaw(Prisma.sql`VACUUM ANALYZE`);
  const vectors = await cache.embed(
    dataset.queries.map((q) => q.text),
    "query",
  );
  beir[name] = {
    namespaceId: namespace.id,
    queries: dataset.queries.map((q, i) => ({ text: q.text, vector: vectors[i] })),
  };
  const docOf = new Map<string, string>();
  for (const m of await (
    await db()
  ).memory.findMany({ where: { namespaceId: namespace.id }, select: { id: true, metadata: true } }))
    docOf.set(m.id, (m.metadata as { doc_id: string }).doc_id);
  for (const candidate of CANDIDATES) {
    let ndcg = 0;
    let recall10 = 0;
    let recall100 = 0;
    let matches10 = 0;
    for (const [qi, query] of dataset.queries.entries()) {
      const ranked = (await search(namespace.id, query.text, 100, candidate, vectors[qi])).map((r) =>
        docOf.get(r.memoryId)!,
      );
      const qrels = dataset.qrels.get(query.id)!;
      ndcg += ndcgAt(ranked, qrels, 10);
      recall10 += recallAt(ranked, qrels, 10);
      recall100 += recallAt(ranked, qrels, 100);
      matches10 += Math.min(10, ranked.length);
    }
    const n = dataset.queries.length;
    const row = {
      set: name,
      candidate: candidate.name,
      ndcg10: ndcg / n,
      recall10: recall10 / n,
      recall100: recall100 / n,
      matches10: matches10 / n,
    };
    results.push(row);
    log(
      `  ${name}, ${candidate.name}: nDCG@10 ${row.ndcg10.toFixed(4)} recall@10 ${row.recall10.toFixed(4)} ` +
        `recall@100 ${row.recall100.toFixed(4)} matches@10 ${row.matches10.toFixed(2)}`,
    );
  }
}

// LoCoMo dev, one memory per turn and the conversation form (role = the speaker's name), as recall stores them.
async function loadConversation(conversation: Conversation, form: "turns" | "conversation") {
  const namespace = await createNamespace(principal, { name: `bench-floor-${conversation.id}-${form}` });
  const target = { namespace_id: namespace.id };
  if (form === "turns") {
    const turns = conversation.sessions.flatMap((s) => s.turns);
    for (let i = 0; i < turns.length; i += LOAD_BATCH) {
      const batch = turns.slice(i, i + LOAD_BATCH).map((t) => ({ content: t.text, metadata: { dia_id: t.diaId } }));
      await remember(principal, target, batch, {}, { allowDuplicate: true });
    }
  } else {
    for (const session of conversation.sessions) {
      const body = RememberBody.parse({
        ...target,
        session_id: session.id,
        messages: session.turns.map((t) => ({
          role: t.speaker,
          content: t.text,
          occurred_at: session.occurredAt.toISOString(),
          metadata: { dia_id: t.diaId },
        })),
      });
      await remember(principal, target, memoryItems(body), {}, { sessionId: session.id });
    }
  }
  const turnOf = new Map<string, string>();
  for (const m of await (
    await db()
  ).memory.findMany({ where: { namespaceId: namespace.id }, select: { id: true, metadata: true } }))
    turnOf.set(m.id, (m.metadata as { dia_id: string }).dia_id);
  return { namespaceId: namespace.id, turnOf };
}

const [dev] = conversationSets(dir);
for (const form of part === undefined || part === "locomo" ? (["conversation", "turns"] as const) : []) {
  const loaded = [];
  for (const conversation of dev.conversations) loaded.push(await loadConversation(conversation, form));
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
      set: `locomo-dev (${form === "turns" ? "one memory per turn" : "conversation"})`,
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
}

async function probe(name: string, namespaceId: string, queries: string[], vectors?: number[][]) {
  for (const candidate of CANDIDATES) {
    let matches = 0;
    let empty = 0;
    for (const [i, query] of queries.entries()) {
      const found = (await search(namespaceId, query, 10, candidate, vectors?.[i])).length;
      matches += found;
      empty += found === 0 ? 1 : 0;
    }
    const row = {
      probe: name,
      candidate: candidate.name,
      matches10: matches / queries.length,
      emptyShare: empty / queries.length,
      queries: queries.length,
    };
    probes.push(row);
    log(
      `  probe ${name}, ${candidate.name}: matches@10 ${row.matches10.toFixed(2)}, none ${row.emptyShare.toFixed(3)}`,
    );
  }
}

// No-answer probes: each BEIR set's queries against the other's memories, LoCoMo's questions against SciFact's.
if (beir.scifact) {
  await probe(
    "LoCoMo questions → SciFact",
    beir.scifact.namespaceId,
    dev.conversations.flatMap((c) => c.questions.map((q) => q.text)),
  );
  await probe(
    "SciFact queries → MS MARCO",
    beir["msmarco-trecdl-subset"].namespaceId,
    beir.scifact.queries.map((q) => q.text),
    beir.scifact.queries.map((q) => q.vector),
  );
  await probe(
    "MS MARCO queries → SciFact",
    beir.scifact.namespaceId,
    beir["msmarco-trecdl-subset"].queries.map((q) => q.text),
    beir["msmarco-trecdl-subset"].queries.map((q) => q.vector),
  );
}

const commit = execSync("git rev-parse --short HEAD", { cwd: root }).toString().trim();
const meta = { commit, date: new Date().toISOString(), cpu: os.cpus()[0]?.model.trim(), cores: os.cpus().length };
fs.mkdirSync(path.join(root, "bench/results"), { recursive: true });
const resultsFile = (name: string) => path.join(root, `bench/results/relevance-floor-${name}.json`);
if (part !== "report")
  fs.writeFileSync(resultsFile(part ?? "all"), JSON.stringify({ ...meta, results, probes }, null, 2) + "\n");
else
  for (const name of ["beir", "locomo"]) {
    if (!fs.existsSync(resultsFile(name))) continue;
    const saved = JSON.parse(fs.readFileSync(resultsFile(name), "utf8"));
    results.push(...saved.results);
    probes.push(...saved.probes);
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
