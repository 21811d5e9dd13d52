// The steps of a search after its legs are fused (search.ts, searchChunks): the entity steps, the weight of
// telling turns, the feedback step; with the candidates they rank, as the legs found them.
import { timedStage } from "@/lib/http/server-timing";
import { sentencesOf } from "../store/chunking";
import {
  bestPerMemory,
  DATE_FOCUS,
  ENTITY_BOOST,
  ENTITY_HOP,
  FEEDBACK_SEEDS,
  FEEDBACK_WEIGHT,
  type EntityGain,
  type NeighbourGain,
  TURN_PRIOR,
  turnPrior,
  withDateFocus,
  withEntityEvidence,
  withFeedback,
  withNeighbourEvidence,
  withTurnPrior,
} from "./ranking";
import { entityHop, queryEntities, queryEntityEvidence } from "./search-entities";
import {
  chunkRows,
  chunksOfMemories,
  feedbackSimilarities,
  type ChunkRow,
  type ScopeSelection,
  type SearchRequest,
} from "./search-legs";

/** The best this many memories are the seeds of the entity hop (ENTITY_HOP)… */
const HOP_SEEDS = 5;
/** …which brings in at most this many memories, the most strongly linked. */
const HOP_REACH = 20;

/**
 * A candidate with its fused score and what the steps after fusion set, at their values before any step: its own
 * score, and nothing gained from neighbours or entities (rankedCandidate builds it).
 */
export type Ranked = Candidate & { score: number } & NeighbourGain & EntityGain;

export interface Candidate {
  chunkId: string;
  memoryId: string;
  /** The turn's conversation and position in it; null for a plain memory. */
  sessionId: string | null;
  position: number | null;
  /** Who said the turn. */
  role: string | null;
  /** Exact, or for a vector candidate the leg left out, the most it can be (the leg's lowest hit). */
  bm25: number;
  bm25Exact: boolean;
  /** The query terms (lexemes) the chunk has; known once bm25 is exact. */
  terms: string[];
  cosine: number;
  /** Whether the cosine was computed (it is not in full-text search, nor for a chunk of another embedding model). */
  cosineKnown: boolean;
}

/** A chunk fetched with its exact BM25 terms and its cosine (if its vector was compared) as a candidate. */
export function exactCandidate(row: ChunkRow & { bm25: number; terms: string[]; cosine: number | null }): Candidate {
  return {
    chunkId: row.id,
    memoryId: row.memory_id,
    sessionId: row.session_id,
    position: row.session_position,
    role: row.role,
    bm25: row.bm25,
    bm25Exact: true,
    terms: row.terms,
    cosine: row.cosine ?? 0,
    cosineKnown: row.cosine !== null,
  };
}

/**
 * `candidate` with its fused `score`, as the steps after fusion take it, every field set here. The steps copy a
 * candidate with new values (`{ ...m, score }`); in V8 (Node 20) such a copy takes 0.1 µs when it only overwrites
 * fields, and 2 µs for each field it adds, 1.2 ms of a recall's main thread when the fields came one step at a
 * time (`node bench/object-copies.mjs`).
 */
export function rankedCandidate(candidate: Candidate, score: number): Ranked {
  return {
    chunkId: candidate.chunkId,
    memoryId: candidate.memoryId,
    sessionId: candidate.sessionId,
    position: candidate.position,
    role: candidate.role,
    bm25: candidate.bm25,
    bm25Exact: candidate.bm25Exact,
    terms: candidate.terms,
    cosine: candidate.cosine,
    cosineKnown: candidate.cosineKnown,
    score,
    ownScore: score,
    neighbourGain: 0,
    borrowedEvidence: false,
    entityGain: 0,
  };
}

/**
 * The entity steps (lib/memory/search/ranking.ts, ENTITY_BOOST, DATE_FOCUS, ENTITY_HOP), each skipped when its weight
 * is off: memories mentioning the entities the query names gain evidence (those the legs did not find are
 * brought in and scored as the legs would have); memories outside the dates it names keep DATE_FOCUS of their
 * score; then the memories sharing rare entities with the best results gain a share of theirs. Returns the
 * ranking and, by memory id, the entity evidence each gained.
 */
export async function withEntitySteps(
  request: SearchRequest,
  ranked: Ranked[],
  exact: Ranked[],
  visible: number,
  selection: ScopeSelection | undefined,
  vector: number[] | undefined,
  score: (candidate: Candidate) => number,
  rows: Map<string, ChunkRow>,
): Promise<{ best: Ranked[]; gains: Map<string, number> }> {
  const boost = request.entityBoost ?? ENTITY_BOOST;
  const dateFocus = request.dateFocus ?? DATE_FOCUS;
  const hop = request.entityHop ?? ENTITY_HOP;
  let best = ranked;
  const gains = new Map<string, number>();
  /** Scores memories neither leg found and adds them to the ranking, with no evidence of their neighbours. */
  const bringIn = async (memoryIds: string[]) => {
    const known = new Set(best.map((m) => m.memoryId));
    const missing = memoryIds.filter((id) => !known.has(id));
    if (missing.length === 0) return;
    const chunks = await chunksOfMemories(request, selection, vector, missing);
    const found: Ranked[] = [];
    for (const chunk of chunks) {
      rows.set(chunk.id, chunk);
      const candidate = exactCandidate(chunk);
      found.push(rankedCandidate(candidate, score(candidate)));
    }
    exact.push(...found);
    best = [...best, ...withNeighbourEvidence(bestPerMemory(found), 0)];
  };

  const wanted =
    boost > 0 || dateFocus < 1 ? queryEntities(request.query, new Date(), boost > 0) : { keys: [], dates: [] };
  const keys = boost > 0 ? wanted.keys : [];
  const dates = dateFocus < 1 ? wanted.dates : [];
  let inside: Set<string> | undefined;
  if (keys.length > 0 || dates.length > 0) {
    const evidence = await queryEntityEvidence(
      request,
      { keys, dates },
      best.map((m) => m.memoryId),
      visible,
    );
    if (evidence.gains.size > 0) {
      await bringIn(
        [...evidence.gains]
          .sort((a, b) => b[1] - a[1])
          .map(([id]) => id)
          .slice(0, HOP_REACH),
      );
      best = withEntityEvidence(best, evidence.gains, boost);
      for (const [id, gain] of evidence.gains) gains.set(id, gain);
    }
    inside = evidence.inside;
  }
  if (hop > 0 && best.length > 0 && best[0].score > 0) {
    const seeds = best
      .slice(0, HOP_SEEDS)
      .filter((m) => m.score > 0)
      .map((m) => ({ memoryId: m.memoryId, share: m.score / best[0].score }));
    const linked = await entityHop(request, seeds, visible, HOP_REACH);
    if (linked.size > 0) {
      await bringIn([...linked.keys()]);
      best = withEntityEvidence(best, linked, hop);
      for (const [id, gain] of linked) gains.set(id, Math.max(gains.get(id) ?? 0, gain));
    }
  }
  // Last, so that neither entity step lifts a memory of another time above those of the query's dates.
  if (inside) best = withDateFocus(best, inside, dateFocus);
  return { best, gains };
}

/**
 * Conversation turns that mostly ask or say little keep part of their score (lib/memory/search/ranking.ts, TURN_PRIOR),
 * read from their text (fetched for the candidates the legs did not return it for). Every candidate turn is
 * weighed, so that a memory scores the same whatever top_k.
 */
export async function withTellingTurnsFirst(
  request: SearchRequest,
  ranked: Ranked[],
  selection: ScopeSelection | undefined,
  rows: Map<string, ChunkRow>,
): Promise<Ranked[]> {
  const prior = request.turnPrior ?? TURN_PRIOR;
  if (prior.asking === 1 && prior.short === 1) return ranked;
  const turns = ranked.filter((m) => m.sessionId !== null);
  const missing = turns.filter((m) => !rows.has(m.chunkId)).map((m) => m.chunkId);
  if (missing.length) {
    const fetched = await timedStage("rows", () => chunkRows(request, selection, missing));
    for (const [id, row] of fetched) rows.set(id, row);
  }
  const keep = new Map(
    turns.flatMap((m) => {
      const row = rows.get(m.chunkId);
      return row ? [[m.chunkId, turnPrior(sentencesOf(row.content), prior)]] : [];
    }),
  );
  return withTurnPrior(ranked, (m) => keep.get(m.chunkId) ?? 1);
}

/** The feedback step (lib/memory/search/ranking.ts, FEEDBACK_WEIGHT) over every candidate turn. */
export async function withFeedbackStep(
  request: SearchRequest,
  ranked: Ranked[],
  selection: ScopeSelection | undefined,
  vector: number[],
): Promise<Ranked[]> {
  const weight = request.feedbackWeight ?? FEEDBACK_WEIGHT;
  const seeds = ranked.filter((m) => m.score > 0).slice(0, FEEDBACK_SEEDS);
  const turns = ranked.filter((m) => m.sessionId !== null);
  if (weight === 0 || seeds.length === 0 || turns.length === 0) return ranked;
  const similarity = await timedStage("feedback", () =>
    feedbackSimilarities(
      request,
      selection,
      vector,
      seeds.map((m) => m.chunkId),
      turns.map((m) => m.chunkId),
    ),
  );
  return withFeedback(ranked, similarity, weight);
}
