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
  /** Cosine similarity of the memory and the query, 0 to 1 (0 when it was not compared). */
  similarity: number;
}

/**
 * A logistic model of relevance, `σ(intercept + Σ weight · feature)`, fitted on the matches recall lists (top_k
 * 10, no min_score) for every judged question of SciFact, MS MARCO (TREC DL grade 2 or more) and the LoCoMo
 * development conversations (a question's evidence turns), each set weighing the same:
 * `BENCH_ONLY=calibration npm run bench` prints the fit and how well the scores in use are calibrated
 * (docs/benchmarks.md, "What a score means"). Similarity is left out: beside the ranking score (which holds it)
 * its fitted weight was negative, so a memory closer in meaning would have scored lower. With it, the expected
 * calibration error over the three sets was the same (0.031).
 *
 * A match sharing no word with the query (coverage 0) is scored by `meaningOnly` instead, on its similarity alone:
 * such matches were 20 of the 11,021 the fit above saw (in a large namespace a question nearly always shares a word
 * with something), so it knows nothing of them, while in a small one they are common ("Which dog breed do they
 * own?" and "I adopted a golden retriever"). It is fitted the same way on the matches of the vector leg alone (top
 * 10 by similarity, every judged question of the three sets).
 */
export const CALIBRATION = {
  features: ["rankScore", "coverage"] as const satisfies readonly (keyof RelevanceFeatures)[],
  weights: [1.72, 4.383],
  intercept: -4.167,
  meaningOnly: { weight: 3.175, intercept: -3.422 },
};

/** The features of a match, from what search found. */
export function relevanceFeatures(match: {
  score: number;
  coverage: number;
  reasons: { similarity: number | null };
}): RelevanceFeatures {
  return { rankScore: match.score, coverage: match.coverage, similarity: match.reasons.similarity ?? 0 };
}

/** The probability that a match with these features is relevant (CALIBRATION), rounded to 6 decimals. */
export function relevanceOf(features: RelevanceFeatures): number {
  let z: number;
  if (features.coverage === 0)
    z = CALIBRATION.meaningOnly.intercept + CALIBRATION.meaningOnly.weight * features.similarity;
  else {
    z = CALIBRATION.intercept;
    CALIBRATION.features.forEach((name, i) => (z += CALIBRATION.weights[i] * features[name]));
  }
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
