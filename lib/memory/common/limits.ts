/** Limits on memory operations (README "Limits"). */
export const LIMITS = {
  contentChars: 100_000,
  batchSize: 100,
  queryChars: 4_000,
  metadataBytes: 8_192,
  metadataKeys: 64,
  scopePairs: 16,
  topK: 100,
  askTopK: 20,
  forgetIds: 1_000,
  conversationMessages: 500,
  /** Ten years: longer is not an expiry. */
  ttlSeconds: 315_360_000,
  contextTurns: 5,
} as const;
