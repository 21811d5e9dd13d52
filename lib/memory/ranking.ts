import type { LexicalResult } from "./search-legs";

// How candidates are scored and ranked: pure functions of what the legs found.

/** Scale of memories sharing no meaningful word with the query while others do: ranked after those, by similarity. */
export const SEMANTIC_ONLY_SCALE = 0.05;

/**
 * The fused score, chosen by measurement (`npm run bench`, docs/benchmarks.md; SciFact and MS MARCO
 * with the local USE-lite embedder): lexical evidence decides and similarity boosts it,
 * `lexical · (1 + cosine) / 2`, which beat every linear mix `w · lexical + (1 − w) · cosine` on both
 * sets. Memories without lexical evidence follow by similarity; when no candidate has any (a pure
 * paraphrase, or a query of stop words only) similarity alone is the score.
 */
export function fuseScores(lexical: number, cosine: number, anyLexical: boolean): number {
  const similarity = Math.max(0, Math.min(1, cosine));
  if (!anyLexical) return similarity;
  return lexical > 0 ? (lexical * (1 + similarity)) / 2 : SEMANTIC_ONLY_SCALE * similarity;
}

/**
 * The lexical hits whose cosine can change the results. A hit scores between half its lexical share
 * (cosine 0) and all of it (cosine 1), so the topK-th memory by lexical share scores at least half of
 * its own, and a hit below that can neither enter the results nor raise its memory's score in them.
 */
export function hitsThatCanRank(lexical: LexicalResult, topK: number): string[] {
  const memories = new Set<string>();
  let floor = 0;
  for (const hit of lexical.hits) {
    memories.add(hit.row.memory_id);
    if (memories.size === topK) {
      floor = hit.bm25 / 2;
      break;
    }
  }
  return lexical.hits.filter((hit) => hit.bm25 >= floor).map((hit) => hit.chunk_id);
}

/** The best chunk of each memory, best first. */
export function bestPerMemory<T extends { memoryId: string; chunkId: string; score: number }>(chunks: T[]): T[] {
  const best = new Map<string, T>();
  for (const chunk of chunks) {
    const previous = best.get(chunk.memoryId);
    if (!previous || previous.score < chunk.score) best.set(chunk.memoryId, chunk);
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}
