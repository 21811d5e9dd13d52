// How candidates are scored and ranked: pure functions of what the legs found. A step copies a memory with its
// new values (`{ ...m, score }`); search hands the steps memories that already have every field a step sets
// (search-steps.ts, rankedCandidate), since in V8 a copy that adds a field is 20 to 50 times slower.

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
export function hitsThatCanRank(
  lexical: { hits: { chunk_id: string; bm25: number; memory_id: string }[] },
  topK: number,
): string[] {
  const memories = new Set<string>();
  let floor = 0;
  for (const hit of lexical.hits) {
    memories.add(hit.memory_id);
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

/**
 * The share of a neighbouring turn's score a conversation turn receives. A question is often answered
 * across two adjacent turns ("Did you go to the support group?" — "Yes, yesterday, it was so powerful"),
 * and the turn holding the answer may share no word with the question. The one parameter: measured at
 * ¼, ½ and 1 on LoCoMo's development conversations (frac@10 0.673, 0.695, 0.692; `npm run bench`,
 * docs/benchmarks.md), half, which also keeps a turn's own evidence worth more than its neighbour's.
 */
export const NEIGHBOUR_SHARE = 0.5;

/** Where a memory sits in a conversation: its session and position, both null for a plain memory. */
export interface TurnPlace {
  sessionId: string | null;
  position: number | null;
}

const placeKey = (sessionId: string, position: number) => `${position}\u0000${sessionId}`;

/** The places just before and after each of the `turns`, those not among the `known` turns. */
export function missingNeighbours(turns: TurnPlace[], known: TurnPlace[]): { sessionId: string; position: number }[] {
  const places = new Map<string, { sessionId: string; position: number }>();
  for (const { sessionId, position } of turns) {
    if (sessionId === null || position === null) continue;
    for (const neighbour of [position - 1, position + 1]) {
      if (neighbour >= 0) places.set(placeKey(sessionId, neighbour), { sessionId, position: neighbour });
    }
  }
  for (const { sessionId, position } of known) {
    if (sessionId !== null && position !== null) places.delete(placeKey(sessionId, position));
  }
  return [...places.values()];
}

/** What a turn's neighbours added to its score (withNeighbourEvidence). */
export interface NeighbourGain {
  /** The score on the turn's own evidence, before its neighbours' share. */
  ownScore: number;
  /** How much its neighbours' share added. */
  neighbourGain: number;
  /** Whether a neighbour that lent it a share has evidence of its own (`evident`). */
  borrowedEvidence: boolean;
}

/**
 * Each conversation turn's score with its neighbours' evidence (`memories`: one per memory, scored on its
 * own): the turn is relevant if it matches, or, with probability `share`, the better of the turns just
 * before and after it (same session) does: `1 − (1 − own) · (1 − share · neighbour)`. It stays within 0
 * and 1, equals the own score when the neighbours match nothing, and leaves plain memories as they are.
 * Best first. `evident` says which memories have evidence of their own (the relevance floor): a turn
 * borrows evidence only from such a neighbour.
 */
export function withNeighbourEvidence<T extends TurnPlace & { memoryId: string; chunkId: string; score: number }>(
  memories: T[],
  share = NEIGHBOUR_SHARE,
  evident: (memory: T) => boolean = () => true,
): (T & NeighbourGain)[] {
  const unchanged = (m: T): T & NeighbourGain => ({
    ...m,
    ownScore: m.score,
    neighbourGain: 0,
    borrowedEvidence: false,
  });
  if (share === 0) return memories.map(unchanged);
  const own = new Map<string, T>();
  for (const m of memories) {
    if (m.sessionId !== null && m.position !== null) own.set(placeKey(m.sessionId, m.position), m);
  }
  return memories
    .map((m) => {
      if (m.sessionId === null || m.position === null) return unchanged(m);
      const neighbours = [m.position - 1, m.position + 1].flatMap((p) => {
        const found = own.get(placeKey(m.sessionId!, p));
        return found ? [found] : [];
      });
      const neighbour = Math.max(0, ...neighbours.map((n) => n.score));
      const score = Math.round(Math.max(0, Math.min(1, 1 - (1 - m.score) * (1 - share * neighbour))) * 1e6) / 1e6;
      return {
        ...m,
        score,
        ownScore: m.score,
        neighbourGain: score - m.score,
        borrowedEvidence: neighbours.some((n) => n.score > 0 && evident(n)),
      };
    })
    .sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}

/**
 * What a conversation turn said by someone other than the person a question names keeps of its score.
 * "What did Caroline research?" is answered by what Caroline said (96% of the evidence turns of LoCoMo's
 * development questions naming one speaker are that speaker's), while her name also matches every turn
 * addressing her. Measured at 1, 0.5, 0.3 and 0 on those conversations (`npm run bench`, docs/benchmarks.md).
 */
export const SPEAKER_FOCUS = 0.3;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The one role (speaker) among `roles` that the query names as a whole word, case-insensitively; null when
 * it names none or several ("What do Jon and Gina have in common?" is about both).
 */
export function namedRole(query: string, roles: Iterable<string>): string | null {
  const named = new Set<string>();
  for (const role of roles) {
    const name = role.trim();
    if (!name) continue;
    if (new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, "iu").test(query))
      named.add(name.toLowerCase());
    if (named.size > 1) return null;
  }
  if (named.size !== 1) return null;
  const [name] = named;
  return name;
}

/**
 * Conversation turns of other roles than `role` (compared case-insensitively) keep `focus` of their score;
 * the role's own turns and plain memories keep theirs. Best first.
 */
export function withSpeakerFocus<T extends { role: string | null; chunkId: string; score: number }>(
  memories: T[],
  role: string | null,
  focus = SPEAKER_FOCUS,
): T[] {
  if (role === null || focus === 1) return memories;
  return memories
    .map((m) =>
      m.role === null || m.role.trim().toLowerCase() === role
        ? m
        : { ...m, score: Math.round(m.score * focus * 1e6) / 1e6 },
    )
    .sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}

/**
 * What a match must have to be listed when the caller sends no `min_score` (docs/decisions.md, "A relevance
 * floor"): evidence of its own — a word of the query, or a similarity of at least `minSimilarity` — or, for a
 * conversation turn, a neighbouring turn with such evidence lending it a share; and a score of at least
 * `minScore`. A caller sending `min_score` gets every match scoring at least that (above 0) instead.
 */
export interface RelevanceFloor {
  minScore: number;
  minSimilarity: number;
}

/**
 * Measured (bench/relevance-floor.ts, docs/benchmarks.md): no relevant SciFact abstract lacks evidence at 0.3
 * (those sharing no word are at 0.42 or more), LoCoMo's frac@10 stays 0.733 up to 0.4, and "dog" no longer
 * finds an allergy at 0.26. A floor on the fused score instead cost LoCoMo answers (0.05: frac@10 0.716).
 */
export const RELEVANCE_FLOOR: RelevanceFloor = { minScore: 0, minSimilarity: 0.3 };

/** Whether a match has evidence of its own: a word of the query, or a similarity of at least `minSimilarity`. */
export function hasOwnEvidence(
  match: { lexical: number; cosine: number; cosineKnown: boolean },
  minSimilarity: number,
): boolean {
  return match.lexical > 0 || (match.cosineKnown && match.cosine >= minSimilarity);
}

/** What carried a match: the query's words, its meaning, both, or the turns around it in its conversation. */
export type MatchVia = "words" | "meaning" | "words and meaning" | "conversation context";

/**
 * What carried most of a match's score. Conversation context, when its neighbours added more than its own
 * evidence scored (or it has none of its own); otherwise words when it shares one with the query, and
 * meaning too when its similarity is at least the floor's (what the floor counts as evidence of meaning).
 */
export function matchVia(
  match: { lexical: number; cosine: number; cosineKnown: boolean; ownScore: number; neighbourGain: number },
  minSimilarity = RELEVANCE_FLOOR.minSimilarity,
): MatchVia {
  const meaning = match.cosineKnown && match.cosine >= minSimilarity;
  if (match.neighbourGain > 0 && (match.neighbourGain > match.ownScore || (match.lexical === 0 && !meaning)))
    return "conversation context";
  if (match.lexical > 0) return meaning ? "words and meaning" : "words";
  return "meaning";
}

/**
 * How much an entity says about a memory that mentions it: its inverse document frequency among the memories
 * the search may see, `ln(1 + (n − df + 0.5) / (df + 0.5))` (BM25's), over the most any entity can have (one
 * mentioned once), so 0 to 1. A speaker in every other turn of a conversation weighs little; a place named
 * in two turns, much.
 */
export function entityWeight(df: number, n: number): number {
  const total = Math.max(n, df, 1);
  const idf = (d: number) => Math.log(1 + (total - d + 0.5) / (d + 0.5));
  return Math.max(0, Math.min(1, idf(df) / idf(1)));
}

/**
 * The entity steps' weights, measured on LoCoMo's development conversations (conversation form, frac@10 over
 * 762 questions, `npm run bench`, docs/benchmarks.md), each on its own from 0.733:
 * - ENTITY_BOOST, the entities a query names (withEntityEvidence): 0.1 → 0.734, 0.3 → 0.733 (open-domain
 *   0.384 → 0.403, single-hop down as much). Off: the names a question uses are its words, which BM25
 *   already weighs by rarity; what the entities add (aliases, a phrase as one name) changes few rankings.
 *   Again with TURN_PRIOR and the feedback step, once sentence-opening words stopped being names: 0.761 →
 *   0.766 at 0.1, 0.762 at 0.2 and 0.3, nearly all of it from the speaker's own entity (with entities in more
 *   than COMMON_ENTITY_SHARE of the memories left out: 0.761), for 6 to 9 ms more a query. Still off.
 * - DATE_FOCUS, what a memory outside the dates a query names keeps (withDateFocus): 0.7 → 0.740, 0.5 and
 *   0.3 → 0.746 (temporal 0.822 → 0.835, single-hop 0.821 → 0.839). 0.5.
 * - ENTITY_HOP, the second hop (entityHop): 0.05 → 0.746 with the dates (multi-hop 0.483 → 0.491), 0.1 →
 *   0.744, 0.15 → 0.734, 0.3 → 0.726. Off: the extractor finds few rare names in chat turns, and the
 *   evidence a hop reaches through them is outweighed by what it pushes out.
 */
export const ENTITY_BOOST = 0;
export const DATE_FOCUS = 0.5;
export const ENTITY_HOP = 0;

/** What entities added to a memory's score (withEntityEvidence). */
export interface EntityGain {
  /** How much it added. */
  entityGain: number;
}

/**
 * Each memory's score with the evidence of the entities it shares with the query or with the best results
 * (`gains`, 0 to 1 by memory id): it is relevant if its own evidence says so, or, with probability
 * `weight · gain`, the entities do: `1 − (1 − own) · (1 − weight · gain)`. Best first.
 */
export function withEntityEvidence<T extends { memoryId: string; chunkId: string; score: number }>(
  memories: T[],
  gains: Map<string, number>,
  weight: number,
): (T & EntityGain)[] {
  return memories
    .map((m) => {
      const gain = weight > 0 ? Math.max(0, Math.min(1, gains.get(m.memoryId) ?? 0)) : 0;
      if (gain === 0) return { ...m, entityGain: 0 };
      const score = Math.round(Math.max(0, Math.min(1, 1 - (1 - m.score) * (1 - weight * gain))) * 1e6) / 1e6;
      return { ...m, score, entityGain: score - m.score };
    })
    .sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}

/**
 * Memories outside the query's dates keep `focus` of their score, when at least one memory is inside them
 * (`inside`: when it happened, or a date it names, falls within a date the query names). A date nothing
 * matches ("last weekend" in a question asked long after) changes nothing. Best first.
 */
export function withDateFocus<T extends { memoryId: string; chunkId: string; score: number }>(
  memories: T[],
  inside: Set<string>,
  focus: number,
): T[] {
  if (focus === 1 || !memories.some((m) => inside.has(m.memoryId))) return memories;
  return memories
    .map((m) => (inside.has(m.memoryId) ? m : { ...m, score: Math.round(m.score * focus * 1e6) / 1e6 }))
    .sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}

/**
 * What a conversation turn that tells little keeps of its score: one whose sentences are mostly questions
 * ("Cool! What type of music do you play?") asks rather than tells, and one of fewer than SHORT_TURN_WORDS
 * words ("Thanks, Melanie! Your kind words mean a lot.") holds little to find; both match a question's words
 * as well as a turn that answers it. Of the evidence turns of LoCoMo's development questions, 3 % mostly ask
 * and 2 % are short, against 15 % and 11 % of the 20 best turns of each question. Measured on those
 * conversations (frac@10, `npm run bench`, docs/benchmarks.md): without it 0.755 (multi-hop 0.482); asking
 * and short at 0.6 and 0.7 → 0.761 (multi-hop 0.506); 0.5 and 0.5 → 0.762; 0.4 and 0.7 → 0.762; 0.6 and
 * 0.5 → 0.761. 0.6 and 0.7, the mildest of the equals.
 */
export const TURN_PRIOR = { asking: 0.6, short: 0.7 };
export const SHORT_TURN_WORDS = 12;

/** The share of a turn's score it keeps for what it tells (TURN_PRIOR): 1 for a turn that tells something. */
export function turnPrior(sentences: string[], prior = TURN_PRIOR): number {
  const words = sentences.reduce((sum, s) => sum + (s.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0), 0);
  const asking = sentences.filter((s) => s.endsWith("?")).length;
  return (
    (sentences.length > 0 && asking * 2 >= sentences.length ? prior.asking : 1) *
    (words < SHORT_TURN_WORDS ? prior.short : 1)
  );
}

/**
 * Conversation turns keep `keep(m)` of their score (turnPrior); plain memories keep theirs. Best first.
 */
export function withTurnPrior<T extends TurnPlace & { chunkId: string; score: number }>(
  memories: T[],
  keep: (memory: T) => number,
): T[] {
  return memories
    .map((m) => {
      const share = m.sessionId === null ? 1 : keep(m);
      return share === 1 ? m : { ...m, score: Math.round(m.score * share * 1e6) / 1e6 };
    })
    .sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}

/**
 * The feedback step (pseudo-relevance feedback, as Rocchio's): the query is moved toward its FEEDBACK_SEEDS best
 * results (their normalized mean vector added to the query's), and each memory with a score is also relevant,
 * with probability FEEDBACK_WEIGHT · (similarity − FEEDBACK_FLOOR), if it resembles that:
 * `1 − (1 − own) · (1 − weight · max(0, similarity − floor))`. It finds what the question's words do not say
 * but its best answers do ("What activities does Melanie partake in?": camping, once pottery is found).
 * Measured on LoCoMo's development conversations (frac@10, `npm run bench`, docs/benchmarks.md): without it
 * 0.757 (open-domain 0.419); 0.05 → 0.763; 0.1 → 0.761 (open-domain 0.445); 0.2 → 0.757; 0.3 → 0.756. 0.1,
 * the one that also lifts open-domain questions. About 3 ms a query (one statement).
 */
export const FEEDBACK_WEIGHT = 0.1;
export const FEEDBACK_SEEDS = 3;
export const FEEDBACK_FLOOR = 0.3;

/**
 * Each conversation turn's score with the feedback step's evidence (`similarity` by chunk id); plain memories
 * keep theirs: a turn says little on its own, and on SciFact's abstracts the step cost nDCG@10 (0.701 → 0.697).
 * Best first.
 */
export function withFeedback<T extends TurnPlace & { chunkId: string; score: number }>(
  memories: T[],
  similarity: Map<string, number>,
  weight = FEEDBACK_WEIGHT,
): T[] {
  if (weight === 0 || similarity.size === 0) return memories;
  return memories
    .map((m) => {
      const gain = weight * Math.max(0, (similarity.get(m.chunkId) ?? 0) - FEEDBACK_FLOOR);
      if (m.sessionId === null || m.score <= 0 || gain <= 0) return m;
      return { ...m, score: Math.round(Math.min(1, 1 - (1 - m.score) * (1 - gain)) * 1e6) / 1e6 };
    })
    .sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}
