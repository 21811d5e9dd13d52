// What recall publishes as a match's `score`: how likely the match is relevant, from 0 to 1, on the same scale
// for every query. The ranking score (search.ts) orders candidates well within one query but not across them: its
// lexical part is BM25 over the query's best possible BM25, so a memory holding every word of the query once scores
// about 0.4, and a query with rare words and one with common words give unlike scores to like matches.

/** What a match's relevance is read from. */
export interface RelevanceFeatures {
  /** The ranking score: fused words and meaning, with the conversation, entity and feedback steps. */
  rankScore: number;
  /** The share of the query's term weight the memory has, each word counted once (search.ts, `coverage`). */
  coverage: number;
}

/**
 * A logistic model of relevance, `σ(intercept + Σ weight · feature)`, fitted on the matches recall lists (top_k
 * 10, no min_score) for every judged question of SciFact, MS MARCO (TREC DL grade 2 or more) and the LoCoMo
 * development conversations (a question's evidence turns), each set weighing the same:
 * `BENCH_ONLY=calibration npm run bench` prints the fit and how well the scores in use are calibrated
 * (docs/benchmarks.md, "What a score means"). Similarity is left out: beside the ranking score (which holds it)
 * its fitted weight was negative, so a memory closer in meaning would have scored lower. With it, the expected
 * calibration error over the three sets was the same (0.031).
 */
export const CALIBRATION = {
  features: ["rankScore", "coverage"] as const satisfies readonly (keyof RelevanceFeatures)[],
  weights: [1.72, 4.383],
  intercept: -4.167,
};

/** The features of a match, from what search found. */
export function relevanceFeatures(match: { score: number; coverage: number }): RelevanceFeatures {
  return { rankScore: match.score, coverage: match.coverage };
}

/** The probability that a match with these features is relevant (CALIBRATION), rounded to 6 decimals. */
export function relevanceOf(features: RelevanceFeatures): number {
  let z = CALIBRATION.intercept;
  CALIBRATION.features.forEach((name, i) => (z += CALIBRATION.weights[i] * features[name]));
  return Math.round((1 / (1 + Math.exp(-z))) * 1e6) / 1e6;
}

/**
 * The matches, in their order, each with a relevance no higher than that of any match before it: a list read
 * from the top never shows a score rising (the order is the ranking's, and a lower match's own relevance may
 * exceed an upper one's). A match's relevance depends only on the matches above it.
 */
export function withDescendingRelevance<T extends { relevance: number }>(matches: T[]): T[] {
  let ceiling = 1;
  return matches.map((match) => {
    ceiling = Math.min(ceiling, match.relevance);
    return match.relevance === ceiling ? match : { ...match, relevance: ceiling };
  });
}
