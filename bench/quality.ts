// Retrieval quality through the same lib/ functions the API uses: nDCG@10 and recall@100 for hybrid,
// vector-only and full-text-only search on the BEIR datasets in BENCH_DATASETS_DIR (docs/benchmark-datasets.md).
import path from "node:path";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { embedder } from "@/lib/memory/embeddings";
import { remember } from "@/lib/memory/write/remember";
import { BM25 } from "@/lib/memory/search/search-legs";
import { searchChunks, type SearchMode } from "@/lib/memory/search/search";
import { createNamespace } from "@/lib/namespaces/namespaces";
import { createOrganization } from "@/lib/orgs/organizations";
import { CachedEmbeddingProvider } from "./lib/cached-embedder";
import { loadDataset, ndcgAt, recallAt, type Dataset } from "./lib/beir";

export interface QualityRow {
  dataset: string;
  mode: SearchMode;
  bm25: { k1: number; b: number };
  ndcg10: number;
  recall100: number;
  queries: number;
  docs: number;
  ms: number;
}

export interface Run {
  mode: SearchMode;
  bm25?: { k1: number; b: number };
}

type Principal = Awaited<ReturnType<typeof benchPrincipal>>;

export async function benchPrincipal() {
  const org = await createOrganization("Benchmark", SYSTEM_ACTOR);
  const { key } = await createApiKey(
    { orgId: org.id, name: "bench", permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE", "NAMESPACE_MANAGE"] },
    SYSTEM_ACTOR,
  );
  const permissions = key.permissions as never;
  // An operator key (no creator), as `memgw key create` makes.
  return {
    kind: "api_key" as const,
    orgId: org.id,
    keyId: key.id,
    name: key.name,
    permissions,
    scopes: {},
    creator: null,
  };
}

/** Loads a dataset's documents as memories (title + text) through remember(), 100 at a time. */
export async function loadIntoNamespace(principal: Principal, dataset: Dataset, log: (line: string) => void) {
  const namespace = await createNamespace(principal, { name: `bench-${dataset.name}` });
  const started = performance.now();
  for (let i = 0; i < dataset.docs.length; i += 100) {
    const batch = dataset.docs.slice(i, i + 100);
    await remember(
      principal,
      { namespace_id: namespace.id },
      batch.map((d) => ({ content: d.title ? `${d.title}\n${d.text}` : d.text, metadata: { doc_id: d.id } })),
    );
    if ((i / 100) % 10 === 0)
      log(
        `  ${dataset.name}: loaded ${Math.min(i + 100, dataset.docs.length)}/${dataset.docs.length} ` +
          `(${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
  }
  return namespace;
}

/** The corpus document of each memory of a namespace loaded by loadIntoNamespace (its `doc_id` metadata). */
async function docIdsOfMemories(namespaceId: string): Promise<Map<string, string>> {
  const memories = await (await db()).memory.findMany({ where: { namespaceId }, select: { id: true, metadata: true } });
  return new Map(memories.map((m) => [m.id, (m.metadata as { doc_id: string }).doc_id]));
}

/**
 * nDCG@10 and recall@100 of each run over the dataset's queries, against a loaded namespace. `docOf` names
 * the corpus document of each memory (by default its `doc_id` metadata).
 */
export async function evaluate(
  orgId: string,
  namespaceId: string,
  dataset: Dataset,
  queryVectors: number[][],
  runs: Run[],
  log: (line: string) => void,
  docOf?: Map<string, string>,
) {
  docOf ??= await docIdsOfMemories(namespaceId);
  const rows: QualityRow[] = [];
  for (const run of runs) {
    let ndcg = 0;
    let recall = 0;
    const t0 = performance.now();
    for (const [qi, query] of dataset.queries.entries()) {
      const results = await searchChunks({
        orgId,
        namespaceId,
        query: query.text,
        topK: 100,
        mode: run.mode,
        queryVector: queryVectors[qi],
        bm25: run.bm25,
      });
      // A corpus document stored as several memories (a document's passages) counts once, where it first ranks.
      const ranked = [...new Set(results.map((r) => docOf.get(r.memoryId) ?? r.memoryId))];
      ndcg += ndcgAt(ranked, dataset.qrels.get(query.id)!, 10);
      recall += recallAt(ranked, dataset.qrels.get(query.id)!, 100);
    }
    const row: QualityRow = {
      dataset: dataset.name,
      mode: run.mode,
      bm25: run.bm25 ?? BM25,
      ndcg10: ndcg / dataset.queries.length,
      recall100: recall / dataset.queries.length,
      queries: dataset.queries.length,
      docs: dataset.docs.length,
      ms: (performance.now() - t0) / dataset.queries.length,
    };
    rows.push(row);
    const label = `${run.mode}${run.bm25 ? ` k1=${run.bm25.k1} b=${run.bm25.b}` : ""}`;
    log(
      `  ${dataset.name} ${label}: nDCG@10 ${row.ndcg10.toFixed(3)}  recall@100 ${row.recall100.toFixed(3)}  ` +
        `(${row.ms.toFixed(1)} ms/query)`,
    );
  }
  return rows;
}

export function cachedEmbedder() {
  const holder = globalThis as { __memgwEmbedder?: unknown };
  const cache = new CachedEmbeddingProvider(embedder(), path.join(import.meta.dirname, ".cache", "embeddings.jsonl"));
  holder.__memgwEmbedder = cache;
  return cache;
}

export async function measureQuality(options: {
  datasetsDir: string;
  datasets: string[];
  log: (line: string) => void;
}) {
  const cache = cachedEmbedder();
  const principal = await benchPrincipal();
  const rows: QualityRow[] = [];
  for (const name of options.datasets) {
    const dataset = loadDataset(options.datasetsDir, name);
    const namespace = await loadIntoNamespace(principal, dataset, options.log);
    await (await db()).$executeRaw(Prisma.sql`VACUUM ANALYZE`);
    const queryVectors = await cache.embed(
      dataset.queries.map((q) => q.text),
      "query",
    );
    const runs: Run[] = [{ mode: "hybrid" }, { mode: "vector" }, { mode: "fulltext" }];
    rows.push(...(await evaluate(principal.orgId, namespace.id, dataset, queryVectors, runs, options.log)));
  }
  return rows;
}
