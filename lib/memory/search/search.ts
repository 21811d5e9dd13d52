import { timedStage } from "@/lib/http/server-timing";
import { embedQuery } from "../embeddings";
import {
  bestPerMemory,
  fuseScores,
  hasOwnEvidence,
  hitsThatCanRank,
  matchVia,
  missingNeighbours,
  namedRole,
  NEIGHBOUR_SHARE,
  RELEVANCE_FLOOR,
  SPEAKER_FOCUS,
  withNeighbourEvidence,
  withSpeakerFocus,
  type MatchVia,
} from "./ranking";
import { lexicalLeg, wordsWithTerms, type LexicalResult } from "./lexical-leg";
import {
  bm25Of,
  chunkRows,
  scopeSelection,
  turnsAt,
  type ChunkRow,
  type ScopeSelection,
  type SearchMode,
  type SearchRequest,
} from "./search-legs";
import { vectorLeg } from "./vector-leg";
import { relevanceOf, type RelevanceFeatures } from "./calibration";
import { holdsAnswerTo, questionKind, questionWordsOf } from "../text/answer-short";
import { asksWhen } from "../text/source-text";
import {
  exactCandidate,
  type Candidate,
  type Ranked,
  rankedCandidate,
  withEntitySteps,
  withFeedbackStep,
  withTellingTurnsFirst,
} from "./search-steps";

export type { SearchMode, SearchRequest } from "./search-legs";

/** The best this many times top_k memories lend their neighbouring turns evidence (NEIGHBOUR_SHARE). */
const NEIGHBOUR_REACH = 2;
export interface ScoredChunk {
  chunkId: string;
  memoryId: string;
  content: string;
  metadata: Record<string, unknown>;
  scopes: Record<string, string>;
  identityId: string | null;
  sessionId: string | null;
  /** The turn's position in its conversation. */
  position: number | null;
  role: string | null;
  occurredAt: Date;
  createdAt: Date;
  /** The memory's validity (lib/memory/validity): recall hides or demotes what no longer holds. */
  validAt: Date;
  invalidAt: Date | null;
  supersededBy: string | null;
  supersessionKind: string | null;
  /** The ranking score (fused words and meaning, then the steps): orders one query's matches. */
  score: number;
  bm25: number;
  /** BM25 over the best the query could score: the share of the query's weight the chunk matches, 0 to 1. */
  lexical: number;
  /**
   * The share of the query's term weight (BM25's idf) the chunk has, each term counted once however often it
   * occurs: 1 when it has every meaningful word of the query. Unlike `lexical`, a term said once counts in full.
   */
  coverage: number;
  cosine: number;
  /** Why it matched, from what the legs found. */
  reasons: MatchReasons;
  /** How likely the match is relevant, 0 to 1 (calibration.ts): what recall publishes as its `score`. */
  relevance: number;
  /** Listed without evidence, for holding what a where, who, when or how-many question asks (closestHoldingAnswer). */
  holdsAnswer: boolean;
}

export interface MatchReasons {
  /** The query's words (as typed) the memory has: in its text, or for a conversation turn, its speaker. */
  terms: string[];
  /** Cosine similarity of the chunk and the query, 0 to 1; null when it was not compared (full-text search). */
  similarity: number | null;
  via: MatchVia;
}

/**
 * Best chunks for a query, one per memory, best first. While the query is being embedded, the lexical
 * leg (BM25 over the namespace's postings) runs; once the query vector is there, one statement finds
 * the nearest chunks (pgvector HNSW) and the cosines of the lexical hits that can still rank, and the
 * candidates are fused. Every filter applies inside the SQL, before each leg's limit. The BM25 of a
 * vector candidate the lexical leg left out is at most the leg's lowest hit; it is computed only when
 * that bound could place it in the results. A conversation turn then gets a share of its neighbours'
 * evidence (lib/memory/search/ranking.ts, withNeighbourEvidence): one more statement scores the neighbours of
 * the best turns that neither leg found. Plain memories score as they would without it.
 */
export async function searchChunks(request: SearchRequest): Promise<ScoredChunk[]> {
  const mode = request.mode ?? "hybrid";
  const { lexical, vector, candidates } = await legCandidates(request, mode);
  const { selection } = lexical;
  const anyLexical = lexical.hits.length > 0;
  const lexicalShare = (c: Candidate) => (lexical.bm25Max > 0 ? c.bm25 / lexical.bm25Max : 0);
  const score = (candidate: Candidate) => {
    const fused =
      mode === "fulltext"
        ? lexicalShare(candidate)
        : mode === "vector"
          ? Math.max(0, candidate.cosine)
          : fuseScores(lexicalShare(candidate), candidate.cosine, anyLexical);
    // To 6 decimals, as the steps after fusion have always seen it (ties keep their order).
    return Math.round(Math.max(0, Math.min(1, fused)) * 1e6) / 1e6;
  };
  const exact = await withBoundsResolved(request, [...candidates.values()], score);

  const rows = new Map<string, ChunkRow>(lexical.hits.flatMap((hit) => (hit.row ? [[hit.chunk_id, hit.row]] : [])));
  // Without min_score, the relevance floor (RELEVANCE_FLOOR): a match needs evidence of its own, or a
  // neighbouring turn's; with it, every match whose relevance (the published score) is at least min_score.
  // Never one whose ranking score is 0.
  const floor =
    request.minScore === undefined
      ? (request.relevanceFloor ?? RELEVANCE_FLOOR)
      : { minScore: 0, minSimilarity: -Infinity };
  // With an entity filter, mentioning the entity is evidence enough: "who is involved?" asked of Priya's memories
  // shares no word with them and may be far from them in meaning, yet they are what it asks about.
  const entityFiltered = (request.entities?.length ?? 0) > 0;
  const evident = (c: Candidate) =>
    entityFiltered ||
    hasOwnEvidence({ lexical: lexicalShare(c), cosine: c.cosine, cosineKnown: c.cosineKnown }, floor.minSimilarity);
  const { best, entityGains } =
    mode === "hybrid"
      ? await hybridSteps(request, { lexical, vector, exact, rows, score, evident })
      : { best: withNeighbourEvidence(bestPerMemory(exact), 0), entityGains: new Map<string, number>() };
  const relevance = (c: Ranked) => relevanceOf(candidateFeatures(c, lexical.termWeights));
  const ranked = best
    .filter(
      (c) =>
        (mode !== "fulltext" || c.bm25 > 0) &&
        c.score > 0 &&
        (request.minScore === undefined
          ? c.score >= floor.minScore && (evident(c) || c.borrowedEvidence || (entityGains.get(c.memoryId) ?? 0) > 0)
          : relevance(c) >= request.minScore),
    )
    .slice(0, request.topK);
  const holdingAnswer =
    ranked.length === 0 && request.minScore === undefined && mode === "hybrid"
      ? await closestHoldingAnswer(request, best, rows, selection)
      : undefined;
  if (holdingAnswer) ranked.push(holdingAnswer);
  const missing = ranked.filter((c) => !rows.has(c.chunkId)).map((c) => c.chunkId);
  if (missing.length) {
    const fetched = await timedStage("rows", () => chunkRows(request, selection, missing));
    for (const [id, row] of fetched) rows.set(id, row);
  }
  // A memory forgotten between the statements is left out.
  return ranked.flatMap((c) => {
    const row = rows.get(c.chunkId);
    return row ? [scoredChunk(c, row, lexical, lexicalShare(c), c === holdingAnswer)] : [];
  });
}

/** How many of the candidates closest in meaning closestHoldingAnswer reads, and how close they must be. */
const PLAUSIBLE_CANDIDATES = 3;
const PLAUSIBLE_SIMILARITY = 0.15;

/**
 * When the relevance floor leaves nothing for a where, who, when or how-many question, the candidate closest in
 * meaning that holds what the question asks for (a place, a person, a time, a number; answer-short.ts
 * holdsAnswerTo), if one of
 * the PLAUSIBLE_CANDIDATES closest is at PLAUSIBLE_SIMILARITY or more: "Which city does she live in now?" shares
 * no word with "Maria moved to Lisbon in the spring of 2023", and the local embedder puts it at 0.27, below the
 * floor and close to unrelated memories (0.24), but it is the only one naming a place. None for what and why
 * questions: nothing but closeness would speak for the candidate, and a match on meaning alone at that closeness
 * is relevant about one time in fourteen (calibration.ts, CALIBRATION.meaningOnly).
 * Reads the rows it lacks (into `rows`): one statement, only then.
 */
async function closestHoldingAnswer(
  request: SearchRequest,
  candidates: Ranked[],
  rows: Map<string, ChunkRow>,
  selection: ScopeSelection | undefined,
): Promise<Ranked | undefined> {
  const kind = questionKind(request.query, asksWhen(request.query));
  if (kind === "what" || kind === "why") return undefined;
  const closest = candidates
    .filter((c) => c.cosineKnown && c.cosine >= PLAUSIBLE_SIMILARITY && c.score > 0)
    .sort((a, b) => b.cosine - a.cosine)
    .slice(0, PLAUSIBLE_CANDIDATES);
  const missing = closest.filter((c) => !rows.has(c.chunkId)).map((c) => c.chunkId);
  if (missing.length) {
    for (const [id, row] of await timedStage("rows", () => chunkRows(request, selection, missing))) rows.set(id, row);
  }
  const questionWords = questionWordsOf(request.query);
  return closest.find((c) => {
    const row = rows.get(c.chunkId);
    return row !== undefined && holdsAnswerTo(kind, row.content, questionWords, row.occurred_at.toISOString());
  });
}

/**
 * The two legs: the lexical one runs while the query is embedded, the vector one once its vector is there.
 * Their hits as candidates by chunk id; a vector hit the lexical leg left out carries the leg's bound on its
 * BM25 (`bm25Exact` false), or 0 when the leg was not cut short.
 */
async function legCandidates(request: SearchRequest, mode: SearchMode) {
  const pendingVector =
    mode === "fulltext" ? undefined : Promise.resolve(request.queryVector ?? embedQuery(request.orgId, request.query));
  pendingVector?.catch(() => undefined); // awaited below; an early failure must not go unhandled meanwhile
  // Enough candidates per leg that fusion can reorder them, and several chunks of one memory still leave topK memories.
  const limit = Math.max(50, request.topK * 2);
  const lexical: LexicalResult =
    mode === "vector"
      ? {
          bm25Max: 0,
          hits: [],
          truncated: false,
          skippedBm25Max: 0,
          queryWords: [],
          termWeights: {},
          ...(await scopeSelection(request)),
        }
      : await timedStage("lexical", () => lexicalLeg(request, limit));
  const vector = await timedStage("embed-wait", async () => pendingVector);

  const candidates = new Map<string, Candidate>(
    lexical.hits.map((hit) => [
      hit.chunk_id,
      {
        chunkId: hit.chunk_id,
        memoryId: hit.memory_id,
        sessionId: hit.session_id,
        position: hit.session_position,
        role: hit.role,
        bm25: hit.bm25,
        bm25Exact: true,
        terms: hit.terms,
        cosine: 0,
        cosineKnown: false,
      },
    ]),
  );
  if (!vector) return { lexical, vector, candidates };
  // Chunks the lexical leg left out share fewer words than its lowest hit (plus what the common terms it
  // skipped may add), or none if it was not cut short.
  const bm25Bound = lexical.truncated ? lexical.hits[lexical.hits.length - 1].bm25 + lexical.skippedBm25Max : 0;
  const lexicalHitsThatCanRank = mode === "hybrid" ? hitsThatCanRank(lexical, request.topK) : [];
  const vectorHits = await timedStage("vector", () =>
    vectorLeg(request, lexical.selection, lexical.namespaceChunkCount, vector, limit, lexicalHitsThatCanRank),
  );
  for (const row of vectorHits) {
    const known = candidates.get(row.chunk_id);
    if (known) {
      known.cosine = row.cosine;
      known.cosineKnown = true;
    } else
      candidates.set(row.chunk_id, {
        chunkId: row.chunk_id,
        memoryId: row.memory_id,
        sessionId: row.session_id,
        position: row.session_position,
        role: row.role,
        bm25: bm25Bound,
        bm25Exact: bm25Bound === 0,
        terms: [],
        cosine: row.cosine,
        cosineKnown: true,
      });
  }
  return { lexical, vector, candidates };
}

/**
 * Every candidate scored with its exact BM25. The fused score only grows with BM25, so a bounded candidate
 * whose bound cannot beat the topK-th memory so far can neither enter the results nor raise a memory already
 * in them: only the others have their BM25 computed (one statement), the rest are dropped.
 */
async function withBoundsResolved(
  request: SearchRequest,
  candidates: Candidate[],
  score: (candidate: Candidate) => number,
): Promise<Ranked[]> {
  const exact = candidates.filter((c) => c.bm25Exact).map((c) => rankedCandidate(c, score(c)));
  const bounded = candidates.filter((c) => !c.bm25Exact);
  if (!bounded.length) return exact;
  const threshold = bestPerMemory(exact)[request.topK - 1]?.score ?? -1;
  const contenders = bounded.filter((c) => score(c) > threshold);
  const bm25 = contenders.length
    ? await timedStage("bm25", () =>
        bm25Of(
          request,
          contenders.map((c) => c.chunkId),
        ),
      )
    : new Map<string, { bm25: number; terms: string[] }>();
  for (const contender of contenders) {
    const found = bm25.get(contender.chunkId);
    const resolved = { ...contender, bm25: found?.bm25 ?? 0, terms: found?.terms ?? [], bm25Exact: true };
    exact.push(rankedCandidate(resolved, score(resolved)));
  }
  return exact;
}

/**
 * What hybrid search adds after fusion, in order: neighbouring turns' evidence, the query's entities, the
 * focus on a named speaker, the telling turns first and the feedback step. `exact` and `rows` gain the
 * neighbours it scores.
 */
async function hybridSteps(
  request: SearchRequest,
  found: {
    lexical: LexicalResult;
    vector: number[] | undefined;
    exact: Ranked[];
    rows: Map<string, ChunkRow>;
    score: (candidate: Candidate) => number;
    evident: (candidate: Candidate) => boolean;
  },
): Promise<{ best: Ranked[]; entityGains: Map<string, number> }> {
  const { lexical, vector, exact, rows, score } = found;
  const { selection } = lexical;
  let best: Ranked[] = withNeighbourEvidence(bestPerMemory(exact), 0);
  const neighbourShare = request.neighbourShare ?? NEIGHBOUR_SHARE;
  if (neighbourShare > 0) {
    // A conversation turn gets a share of its neighbours' evidence. The neighbours of the best turns that
    // neither leg found are scored as the legs would have (a turn further down lends too little to lift
    // a neighbour into the results); plain memories cost nothing here and keep their scores.
    const places = missingNeighbours(best.slice(0, NEIGHBOUR_REACH * request.topK), exact);
    if (places.length) {
      const turns = await timedStage("neighbours", () =>
        turnsAt(request, selection, vector, places, lexical.truncated),
      );
      for (const turn of turns) {
        rows.set(turn.id, turn);
        const neighbour = exactCandidate(turn);
        exact.push(rankedCandidate(neighbour, score(neighbour)));
      }
    }
    best = withNeighbourEvidence(bestPerMemory(exact), neighbourShare, found.evident);
  }
  const steps = await timedStage("entities", () =>
    withEntitySteps(
      request,
      best,
      exact,
      selection?.chunkCount ?? lexical.namespaceChunkCount,
      selection,
      vector,
      score,
      rows,
    ),
  );
  best = steps.best;
  // A question naming one speaker is about what that speaker said (ranking.ts, SPEAKER_FOCUS).
  const roles = new Set(exact.flatMap((c) => (c.role === null ? [] : [c.role])));
  best = withSpeakerFocus(best, namedRole(request.query, roles), request.speakerFocus ?? SPEAKER_FOCUS);
  best = await withTellingTurnsFirst(request, best, selection, rows);
  if (vector) best = await withFeedbackStep(request, best, selection, vector);
  return { best, entityGains: steps.gains };
}

/** A ranked candidate as search returns it, with its row's fields and why it matched. */
function scoredChunk(
  c: Ranked,
  row: ChunkRow,
  { queryWords, termWeights }: Pick<LexicalResult, "queryWords" | "termWeights">,
  lexical: number,
  holdsAnswer: boolean,
): ScoredChunk {
  const similarity = c.cosineKnown ? Math.round(Math.max(0, Math.min(1, c.cosine)) * 1e6) / 1e6 : null;
  return {
    chunkId: c.chunkId,
    memoryId: c.memoryId,
    content: row.content,
    metadata: row.metadata,
    scopes: row.scopes,
    identityId: row.identity_id,
    sessionId: row.session_id,
    position: row.session_position,
    role: row.role,
    occurredAt: row.occurred_at,
    createdAt: row.created_at,
    validAt: row.valid_at,
    invalidAt: row.invalid_at,
    supersededBy: row.superseded_by,
    supersessionKind: row.supersession_kind,
    score: c.score,
    bm25: c.bm25,
    lexical,
    coverage: termCoverage(termWeights, c.terms),
    cosine: c.cosine,
    relevance: relevanceOf(candidateFeatures(c, termWeights)),
    holdsAnswer,
    reasons: {
      terms: wordsWithTerms(queryWords, c.terms),
      similarity,
      // Its fields named: a spread adding `lexical` to the candidate would leave V8's fast path (see recall.ts).
      via: matchVia({
        lexical,
        cosine: c.cosine,
        cosineKnown: c.cosineKnown,
        ownScore: c.ownScore,
        neighbourGain: c.neighbourGain,
      }),
    },
  };
}

/** A candidate's relevance features (calibration.ts). */
function candidateFeatures(c: Ranked, termWeights: Record<string, number>): RelevanceFeatures {
  return {
    rankScore: c.score,
    coverage: termCoverage(termWeights, c.terms),
    similarity: c.cosineKnown ? Math.max(0, Math.min(1, c.cosine)) : 0,
  };
}

/** The share of the query's term weight that `terms` (a chunk's matched terms) carry, 0 to 1. */
function termCoverage(termWeights: Record<string, number>, terms: string[]): number {
  let total = 0;
  for (const weight of Object.values(termWeights)) total += weight;
  if (total <= 0) return 0;
  let found = 0;
  for (const term of new Set(terms)) found += termWeights[term] ?? 0;
  return Math.min(1, found / total);
}
