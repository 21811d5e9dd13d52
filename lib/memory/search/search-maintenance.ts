import { getDatabase } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ensureNamespaceVectorIndex } from "@/lib/namespaces/vector-indexes";
import { EXACT_VECTOR_SCAN_LIMIT } from "./vector-leg";

// PGlite has no autovacuum, so nothing refreshes the planner's statistics (with stale ones a 10k-chunk
// search chose a 150 ms scan over a 5 ms HNSW probe) or the visibility map that lets BM25 read postings
// from their covering index alone. Do both after ~10% growth (PostgreSQL proper has autovacuum for that).
// Every table a recall reads is analyzed: memory_entities never was, and the matches' entities were found by
// scanning the namespace's whole index of them (2 ms of the database's thread per recall on 3,000 memories).
const state = { analyzedAt: 0, grownSince: 0, running: false };

/** Called after chunks were written to a namespace: keeps the statistics fresh and its vector index there. */
export function noteSearchGrowth(namespaceId: string, chunks: number) {
  // Past the size scanned exactly, a namespace searches an HNSW index of its own.
  void ensureNamespaceVectorIndex(namespaceId, EXACT_VECTOR_SCAN_LIMIT);
  state.grownSince += chunks;
  if (state.running || state.grownSince < Math.max(200, state.analyzedAt * 0.1)) return;
  state.running = true;
  const grown = state.grownSince;
  setImmediate(async () => {
    try {
      const database = await getDatabase();
      if (database.kind !== "pglite") return;
      await database.prisma.$executeRaw(Prisma.sql`VACUUM (ANALYZE) chunk_terms`);
      await database.prisma.$executeRaw(
        Prisma.sql`ANALYZE memory_chunks, namespace_terms, memories, memory_entities, entities`,
      );
      state.analyzedAt += grown;
      state.grownSince -= grown;
    } catch (error) {
      console.error("[memgw] ANALYZE failed:", error);
    } finally {
      state.running = false;
    }
  });
}
