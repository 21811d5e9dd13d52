// Multi-tenant search: the same small and medium namespaces measured alone, then beside 100,000 memories of
// another organization's namespaces, through the lib/ functions the API uses (the search alone: query vectors
// are embedded beforehand, so what changes is what the database does). Each is measured as shipped and
// without the exact scan (exactVectorScanLimit 0: "HNSW only", through the namespace's own HNSW index when
// it has one; a namespace too small for one is then sorted by the planner itself).
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { remember } from "@/lib/memory/write/remember";
import { EXACT_VECTOR_SCAN_LIMIT } from "@/lib/memory/search/vector-leg";
import { searchChunks } from "@/lib/memory/search/search";
import { createNamespace } from "@/lib/namespaces/namespaces";
import { loadDataset, ndcgAt, recallAt, type Dataset } from "./lib/beir";
import { benchPrincipal, cachedEmbedder, loadIntoNamespace } from "./quality";
import { percentile } from "./lib/percentile";

export interface TenancyRow {
  namespace: "small" | "medium";
  docs: number;
  queries: number;
  beside: number;
  vectorLeg: "as shipped" | "HNSW only";
  ndcg10: number;
  recall100: number;
  p50: number;
  p95: number;
}

export interface TenancyResult {
  others: number;
  othersLoadSeconds: number;
  exactVectorScanLimit: number;
  rows: TenancyRow[];
}

const OTHER_NAMESPACES = 10;

/**
 * The small namespace: the SciFact documents judged relevant to the first queries, then other SciFact
 * documents, up to `size`; evaluated on the queries whose every relevant document it holds.
 */
function smallSubset(scifact: Dataset, size: number): Dataset {
  const ids = new Set<string>();
  const queries = [];
  for (const query of scifact.queries) {
    const relevant = [...scifact.qrels.get(query.id)!.keys()];
    if (ids.size + relevant.length > size / 2) break;
    for (const id of relevant) ids.add(id);
    queries.push(query);
  }
  for (const doc of scifact.docs) {
    if (ids.size >= size) break;
    ids.add(doc.id);
  }
  return { ...scifact, name: "scifact-small", docs: scifact.docs.filter((d) => ids.has(d.id)), queries };
}

export async function measureTenancy(options: { datasetsDir: string; others: number; log: (line: string) => void }) {
  const cache = cachedEmbedder();
  const scifact = loadDataset(options.datasetsDir, "scifact");
  const msmarco = loadDataset(options.datasetsDir, "msmarco-trecdl-subset");
  const tenant = await benchPrincipal();
  const small = smallSubset(scifact, 1_000);
  const datasets = { small, medium: scifact };
  const namespaces = {
    small: await loadIntoNamespace(tenant, small, options.log),
    medium: await loadIntoNamespace(tenant, scifact, options.log),
  };
  const queryVectors = {
    small: await cache.embed(
      small.queries.map((q) => q.text),
      "query",
    ),
    medium: await cache.embed(
      scifact.queries.map((q) => q.text),
      "query",
    ),
  };
  const prisma = await db();
  const docOf = new Map<string, string>();
  for (const memory of await prisma.memory.findMany({
    where: { orgId: tenant.orgId },
    select: { id: true, metadata: true },
  }))
    docOf.set(memory.id, (memory.metadata as { doc_id: string }).doc_id);

  const rows: TenancyRow[] = [];
  const measure = async (beside: number) => {
    await prisma.$executeRaw(Prisma.sql`VACUUM ANALYZE`);
    for (const name of ["small", "medium"] as const) {
      const dataset = datasets[name];
      for (const vectorLeg of ["as shipped", "HNSW only"] as const) {
        let ndcg = 0;
        let recall = 0;
        const latencies: number[] = [];
        // Twice: the first pass warms the page cache and the code; the second is measured.
        for (const pass of [0, 1]) {
          for (const [i, query] of dataset.queries.entries()) {
            const started = performance.now();
            const results = await searchChunks({
              orgId: tenant.orgId,
              namespaceId: namespaces[name].id,
              query: query.text,
              topK: 100,
              queryVector: queryVectors[name][i],
              exactVectorScanLimit: vectorLeg === "HNSW only" ? 0 : undefined,
            });
            if (pass === 0) continue;
            latencies.push(performance.now() - started);
            const ranked = results.map((r) => docOf.get(r.memoryId)!);
            ndcg += ndcgAt(ranked, dataset.qrels.get(query.id)!, 10);
            recall += recallAt(ranked, dataset.qrels.get(query.id)!, 100);
          }
        }
        const row: TenancyRow = {
          namespace: name,
          docs: dataset.docs.length,
          queries: dataset.queries.length,
          beside,
          vectorLeg,
          ndcg10: ndcg / dataset.queries.length,
          recall100: recall / dataset.queries.length,
          p50: percentile(latencies, 50),
          p95: percentile(latencies, 95),
        };
        rows.push(row);
        options.log(
          `  ${name} (${row.docs} memories) beside ${beside.toLocaleString("en")}, ${vectorLeg}: ` +
            `nDCG@10 ${row.ndcg10.toFixed(3)} recall@100 ${row.recall100.toFixed(3)} · ` +
            `p50 ${row.p50.toFixed(1)} ms p95 ${row.p95.toFixed(1)} ms`,
        );
      }
    }
  };

  await measure(0);
  // Another organization's namespaces, holding the same public corpora as everyone's: the nearest vectors
  // to a SciFact claim are then mostly theirs, the case a shared index filtered by namespace handles worst.
  const neighbour = await benchPrincipal();
  const texts = [...msmarco.docs, ...scifact.docs].map((d) => (d.title ? `${d.title}\n${d.text}` : d.text));
  const perNamespace = Math.ceil(options.others / OTHER_NAMESPACES);
  const started = performance.now();
  let loaded = 0;
  for (let n = 0; n < OTHER_NAMESPACES && loaded < options.others; n++) {
    const namespace = await createNamespace(neighbour, { name: `other-${n}` });
    for (let i = 0; i < perNamespace && loaded < options.others; i += 100) {
      const batch = Array.from({ length: Math.min(100, perNamespace - i, options.others - loaded) }, (_, j) => ({
        content: texts[(n * perNamespace + i + j) % texts.length],
      }));
      await remember(neighbour, { namespace_id: namespace.id }, batch);
      loaded += batch.length;
      if (loaded % 5_000 === 0)
        options.log(
          `  other tenants: loaded ${loaded.toLocaleString("en")}/${options.others.toLocaleString("en")} ` +
            `(${((performance.now() - started) / 1000).toFixed(0)} s)`,
        );
    }
  }
  const othersLoadSeconds = (performance.now() - started) / 1000;
  await measure(loaded);
  return { others: loaded, othersLoadSeconds, exactVectorScanLimit: EXACT_VECTOR_SCAN_LIMIT, rows };
}
