import { queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import {
  bm25Sql,
  chunkFilter,
  hasScopeFilter,
  namespaceChunkCountSql,
  selectedScopesSql,
  type ChunkRow,
  type ScopeSelection,
  type SearchRequest,
} from "./search-legs";
import { RecentlyUsed } from "../common/recently-used";
import { notExpiredSql, TEXT_SEARCH_CONFIG_SQL } from "../common/sql";
import { withWordBreaks } from "../common/word-breaks";

export interface LexicalHit {
  chunk_id: string;
  bm25: number;
  /** The query's terms (stemmed lexemes) the chunk has. */
  terms: string[];
  /** The chunk's memory and, for a conversation turn, its conversation, place and speaker. */
  memory_id: string;
  session_id: string | null;
  session_position: number | null;
  role: string | null;
  /**
   * The hit's row for the best ROWS_PER_TOP_K × top_k hits (null for the others), fetched with it while the
   * query is still being embedded: most results are among them.
   */
  row: ChunkRow | null;
}

export interface LexicalResult {
  /** The best possible BM25 of the query in this namespace: every term at its highest weight. */
  bm25Max: number;
  hits: LexicalHit[];
  /** Whether the leg stopped at its limit, so that chunks it left out may still share a word. */
  truncated: boolean;
  /**
   * The most BM25 the common terms it did not read through can add (0 when it read every term): a chunk it
   * left out scores at most its lowest hit plus this.
   */
  skippedBm25Max: number;
  /** The signatures the request's scopes select, read in the same statement. */
  selection?: ScopeSelection;
  /** How many chunks the namespace holds, read in the same statement. */
  namespaceChunkCount: number;
  /** Each word of the query with its terms (stemmed lexemes; none for a stop word), in the query's order. */
  queryWords: QueryWord[];
  /** Each term of the query with its weight (BM25's idf in this namespace; also for a term no chunk has). */
  termWeights: Record<string, number>;
}

export interface QueryWord {
  word: string;
  lexemes: string[];
}

/**
 * Each word's terms as the lexical leg reads them (to_tsvector of the word alone), by organization and word: they
 * depend only on the word and the text search configuration, and reading them again took the embedded database
 * 0.3 ms of a SciFact recall's lexical statement. Kept per organization, as query embeddings are, so that how fast a
 * recall answers never tells one organization which words another has used.
 */
const wordLexemes = new RecentlyUsed<string, string[]>(20_000);

/**
 * The query's words as typed, each once (case-insensitively), for telling which of them a match has; in a script
 * written without spaces, the words its segmentation finds (word-breaks.ts).
 */
export function queryWordList(query: string): string[] {
  const seen = new Set<string>();
  return (withWordBreaks(query).match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).filter((word) => {
    const key = word.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A lexical hit's row as the statement sends it: the columns the hit does not carry, timestamps as JSON's text. */
type HitRowRest = Omit<ChunkRow, "id" | "memory_id" | "session_id" | "session_position" | "role" | TimestampColumn> &
  Record<TimestampColumn, string> & { invalid_at: string | null };
type TimestampColumn = "occurred_at" | "created_at" | "valid_at" | "invalid_at";

/**
 * The lexical hit and its ChunkRow, from what the statement sent (`terms` as bits, the row's timestamps as text).
 * Field by field: object rest and a spread that adds fields (`{ ...rest, id }`) cost V8 (Node 20) 5 to 10 µs a
 * hit, 0.4 ms of a recall's main thread for its 50 hits (`node bench/object-copies.mjs`).
 */
function hitOf(sent: SentHit, queryTerms: string[]): LexicalHit {
  const rest = sent.row;
  return {
    chunk_id: sent.chunk_id,
    bm25: sent.bm25,
    terms: termsOfBits(queryTerms, sent.terms),
    memory_id: sent.memory_id,
    session_id: sent.session_id,
    session_position: sent.session_position,
    role: sent.role,
    row: rest && {
      id: sent.chunk_id,
      memory_id: sent.memory_id,
      content: rest.content,
      metadata: rest.metadata,
      scopes: rest.scopes,
      identity_id: rest.identity_id,
      session_id: sent.session_id,
      session_position: sent.session_position,
      role: sent.role,
      occurred_at: new Date(rest.occurred_at),
      created_at: new Date(rest.created_at),
      valid_at: new Date(rest.valid_at),
      invalid_at: rest.invalid_at === null ? null : new Date(rest.invalid_at),
      superseded_by: rest.superseded_by,
      supersession_kind: rest.supersession_kind,
    },
  };
}

/** A hit as the statement sends it: its terms as bits, its row without the hit's own columns. */
type SentHit = Omit<LexicalHit, "terms" | "row"> & { terms: string; row: HitRowRest | null };

/** The terms whose bits are set in `bits` (qt's `bit` strings OR-ed, as text: `0110`), `terms` in qt's order. */
function termsOfBits(terms: string[], bits: string): string[] {
  const set: string[] = [];
  for (let i = 0; i < bits.length; i++) if (bits[i] === "1") set.push(terms[i]);
  return set;
}

/** The query words whose terms are among `terms` (a chunk's matched lexemes), in the query's order. */
export function wordsWithTerms(queryWords: QueryWord[], terms: string[]): string[] {
  if (terms.length === 0) return [];
  const found = new Set(terms);
  return queryWords.filter((w) => w.lexemes.some((lexeme) => found.has(lexeme))).map((w) => w.word);
}

/**
 * A query term in more than this many chunks, and in more than COMMON_TERM_SHARE of them, is common: when
 * the query's rarer terms alone find the leg's limit of chunks, the common term's postings are not read
 * through (Lucene's CommonTermsQuery). Its postings were most of a long question's cost in a large namespace (100,000
 * memories: 48 ms of lexical leg per recall), and a chunk that has only common terms of the query ranks
 * below the chunks that have a rarer one.
 */
export const COMMON_TERM_MIN_CHUNKS = 2_000;
export const COMMON_TERM_SHARE = 0.02;
/**
 * With common terms left out, this many times the leg's limit of the best chunks by the other terms get
 * the common terms' BM25 added (an index lookup each) before the limit is taken.
 */
const COMMON_TERMS_RESCORED = 4;

/**
 * The lexical leg sends the rows of its best this many times top_k hits with them. With all 50 sent, 11 of
 * 300 recalls (top_k 10, 3,000 memories) needed rows afterwards; with the best 20, 45 did, and the leg cost
 * 0.45 ms less (the rows' JSON built in the database and parsed here), the later fetches included.
 */
const ROWS_PER_TOP_K = 2;

/**
 * What this process knows of each namespace's largest document frequency (the most chunks one term is in). A
 * term is common only in more than COMMON_TERM_MIN_CHUNKS chunks, so a namespace whose largest df is no more
 * than that has none, and its lexical leg is the simpler statement: at 3,000 SciFact chunks, whose largest df is
 * far below 2,000, 0.6–0.7 ms of CPU less per recall. Both statements give the same hits there; the simpler
 * one reads every term, so a stale figure costs time, never results.
 * - A namespace of no more chunks than the threshold needs no measurement: no df exceeds its chunk count.
 * - Otherwise the largest df is read off the request path (the namespace's terms, with its chunk count in one
 *   snapshot), when the bound below passes the threshold, and again at most every TERM_SPREAD_MEASURED_EVERY_MS
 *   (a churn of deletes and writes can raise a df at one chunk count); a namespace found with a common term, only
 *   once it holds fewer chunks than then (a large namespace's scan, every few minutes, would hold the embedded
 *   database's one connection). Unmeasured: the common-terms statement.
 * - Between measurements a df grows by at most the chunks added since: the bound is the measured largest df plus
 *   that growth.
 */
interface TermSpread {
  /** The largest df measured (NaN before the first measurement), when the namespace held `measuredChunks`. */
  largestDf: number;
  measuredChunks: number;
  /** The namespace's chunk count at its last search here. */
  chunks: number;
  /** The measurement under way. */
  measuring?: Promise<void>;
  /** Date.now() of the last measurement's end (0: none yet). */
  measuredAt: number;
}
const termSpreads = new Map<string, TermSpread>();
const TERM_SPREADS_KEPT = 10_000;
const TERM_SPREAD_MEASURED_EVERY_MS = 10 * 60_000;
/** A namespace written to near the threshold is measured again no sooner than this (a scan of its terms each). */
const TERM_SPREAD_REMEASURED_AFTER_MS = 10_000;

/** The most chunks any term of the namespace can be in now, by what this process knows (Infinity: unknown). */
function largestDfBound(spread: TermSpread | undefined): number {
  if (!spread || Number.isNaN(spread.largestDf)) return Infinity;
  return spread.largestDf + Math.max(0, spread.chunks - spread.measuredChunks);
}

/** Records a search's chunk count, and starts a measurement of the largest df when one is due (not awaited). */
function noteChunkCount(namespaceId: string, chunks: number, commonMinChunks: number) {
  const spread = termSpreads.get(namespaceId) ?? {
    largestDf: Number.NaN,
    measuredChunks: 0,
    chunks,
    measuredAt: 0,
  };
  termSpreads.delete(namespaceId);
  termSpreads.set(namespaceId, spread);
  if (termSpreads.size > TERM_SPREADS_KEPT) termSpreads.delete(termSpreads.keys().next().value!);
  spread.chunks = chunks;
  if (chunks <= commonMinChunks) {
    spread.largestDf = spread.measuredChunks = chunks;
    return;
  }
  if (spread.measuring) return;
  // Measured with a common term, the namespace keeps the common-terms statement, right for any namespace: only a
  // net loss of chunks (deletes) may have taken its common terms away and is worth another scan of its terms.
  if (spread.largestDf > commonMinChunks && chunks >= spread.measuredChunks) return;
  const since = Date.now() - spread.measuredAt;
  // Writes since a measurement that found no common term may have made one (NaN compares false: unmeasured).
  const crossed = largestDfBound(spread) > commonMinChunks && spread.largestDf <= commonMinChunks;
  if (since < TERM_SPREAD_MEASURED_EVERY_MS && !(crossed && since >= TERM_SPREAD_REMEASURED_AFTER_MS)) return;
  spread.measuring = queryRows<{ largest_df: number; chunks: number }>(
    Prisma.sql`SELECT (SELECT COALESCE(max(df), 0) FROM namespace_terms WHERE namespace_id = ${namespaceId})::float8
                  AS largest_df,
                  ${namespaceChunkCountSql(namespaceId)} AS chunks`,
  )
    .then(([row]) => {
      spread.largestDf = Number(row.largest_df);
      spread.measuredChunks = Number(row.chunks);
    })
    // A failed measurement leaves what was known: the next search past the interval tries again.
    .catch(() => undefined)
    .finally(() => {
      spread.measuring = undefined;
      spread.measuredAt = Date.now();
    });
}

/** Resolves when no measurement of the namespace's largest df is under way (for tests and benchmarks). */
export async function termSpreadSettled(namespaceId: string): Promise<void> {
  await termSpreads.get(namespaceId)?.measuring;
}

/**
 * The lexical leg: the best chunks by BM25, filters applied before the limit;
 * with a scope filter, its selection too.
 */
export async function lexicalLeg(request: SearchRequest, limit: number): Promise<LexicalResult> {
  const scoped = hasScopeFilter(request);
  const ns = request.namespaceId;
  const { statistics, bm25Term } = bm25Sql(request);
  // Postings carry their namespace (resolved within the caller's organization) and scope signature, so
  // without an identity or metadata filter the lexical leg never needs to touch the wide chunk rows.
  const filtered =
    request.identityId !== undefined ||
    Boolean(request.metadata && Object.keys(request.metadata).length) ||
    request.sessionId !== undefined ||
    request.occurredAfter !== undefined ||
    request.occurredBefore !== undefined ||
    Boolean(request.entities?.length);
  const postingScopes =
    scoped && !filtered ? Prisma.sql`AND p.scope_key = ANY((SELECT keys FROM selected)::text[])` : Prisma.empty;
  const chunkJoin = filtered
    ? Prisma.sql`JOIN memory_chunks c ON c.id = p.chunk_id AND ${chunkFilter(request, scoped ? "selected" : undefined)}`
    : Prisma.empty;
  const limitSql = Prisma.sql`${limit}::int`;
  /**
   * The chunks with the query's terms that pass `termCondition`, by their BM25 over those terms, best first; equal
   * scores (common among short chunks) by chunk id in byte order, the same on every database, so a cut keeps the
   * same chunks on every run. The terms a chunk has are the OR of their bits (qt): an array of their text, built
   * for every chunk that has one of them before the limit, cost the embedded database 0.4 ms of a SciFact
   * recall's 5.
   */
  const scoredPostings = (termCondition: Prisma.Sql, limitOf: Prisma.Sql) =>
    Prisma.sql`SELECT p.chunk_id, sum(${bm25Term}) AS bm25, bit_or(qt.bit) AS terms
     FROM qt
     JOIN chunk_terms p ON p.namespace_id = ${ns} AND p.term = qt.term ${postingScopes}
     ${chunkJoin}
     CROSS JOIN stats
     WHERE ${termCondition}
     GROUP BY p.chunk_id
     ORDER BY bm25 DESC, p.chunk_id COLLATE "C"
     LIMIT ${limitOf}`;
  const commonMinChunks = request.commonTermMinChunks ?? COMMON_TERM_MIN_CHUNKS;
  const commonTermsSql = () => {
    const commonFrom = Prisma.sql`GREATEST(${commonMinChunks}::float8, stats.n * ${COMMON_TERM_SHARE}::float8)`;
    const rarerLimit = Prisma.sql`(SELECT ${limitSql} * CASE WHEN count(*) > 0 THEN ${Prisma.raw(
      String(COMMON_TERMS_RESCORED),
    )} ELSE 1 END FROM common)`;
    return Prisma.sql`
     common AS MATERIALIZED (
       SELECT qt.term, qt.idf, qt.bit FROM qt CROSS JOIN stats
       WHERE qt.df > ${commonFrom} AND EXISTS (SELECT 1 FROM qt rare WHERE rare.df <= ${commonFrom})
     ),
     by_rarer AS MATERIALIZED (
       ${scoredPostings(Prisma.sql`qt.term NOT IN (SELECT term FROM common)`, rarerLimit)}
     ),
     -- Common terms are skipped when the rarer ones found enough chunks; otherwise every term is read.
     skipped AS MATERIALIZED (
       SELECT EXISTS (SELECT 1 FROM common) AND (SELECT count(*) FROM by_rarer) >= ${limitSql} AS yes
     ),
     found AS (
       SELECT chunk_id, bm25, terms FROM by_rarer WHERE (SELECT yes FROM skipped) OR NOT EXISTS (SELECT 1 FROM common)
       UNION ALL
       SELECT chunk_id, bm25, terms FROM (${scoredPostings(Prisma.sql`true`, limitSql)}) every_term
       WHERE EXISTS (SELECT 1 FROM common) AND NOT (SELECT yes FROM skipped)
     ),
     lex AS (
       SELECT f.chunk_id, f.bm25 + COALESCE(later.bm25, 0) AS bm25, f.terms | COALESCE(later.terms, f.terms) AS terms
       FROM found f
       LEFT JOIN LATERAL (
         SELECT sum(${bm25Term}) AS bm25, bit_or(qt.bit) AS terms
         FROM common qt
         JOIN chunk_terms p ON p.namespace_id = ${ns} AND p.term = qt.term AND p.chunk_id = f.chunk_id
         CROSS JOIN stats
         WHERE (SELECT yes FROM skipped)
       ) later ON true
       ORDER BY bm25 DESC, f.chunk_id COLLATE "C"
       LIMIT ${limitSql}
     )`;
  };
  const skippedBm25MaxSql = Prisma.sql`(SELECT CASE WHEN yes THEN (SELECT COALESCE(sum(idf), 0) FROM common) ELSE 0 END
                              FROM skipped)::float8`;
  // A namespace none of whose terms is in more chunks than a common term needs has none (TermSpread).
  const mayHaveCommonTerms = largestDfBound(termSpreads.get(request.namespaceId)) > commonMinChunks;
  const wordKey = (word: string) => `${request.orgId}\0${word}`;
  const words = queryWordList(request.query).map((word) => ({ word, lexemes: wordLexemes.get(wordKey(word)) }));
  const unknownWords = words.flatMap(({ word, lexemes }) => (lexemes ? [] : [word]));
  const [row] = await queryRows<{
    bm25_max: number;
    skipped_bm25_max: number;
    hits: SentHit[];
    query_terms: string[];
    query_words: QueryWord[];
    term_weights: Record<string, number>;
    scope_keys: string[] | null;
    scope_chunk_count: number | null;
    namespace_chunk_count: number;
  }>(
    Prisma.sql`WITH ${statistics},
     ${scoped ? Prisma.sql`${selectedScopesSql(request)},` : Prisma.empty}
     ${mayHaveCommonTerms ? commonTermsSql() : Prisma.sql`lex AS (${scoredPostings(Prisma.sql`true`, limitSql)})`}
     SELECT (SELECT COALESCE(sum(idf), 0) FROM qt)::float8 AS bm25_max,
            (SELECT COALESCE(json_object_agg(term, idf), '{}'::json) FROM qt) AS term_weights,
            (SELECT COALESCE(json_agg(term ORDER BY ordinal), '[]'::json) FROM qt) AS query_terms,
            ${mayHaveCommonTerms ? skippedBm25MaxSql : Prisma.sql`0::float8`} AS skipped_bm25_max,
            ${namespaceChunkCountSql(ns)} AS namespace_chunk_count,
            ${scoped ? Prisma.sql`(SELECT keys FROM selected)` : Prisma.sql`NULL`} AS scope_keys,
            ${scoped ? Prisma.sql`(SELECT chunk_count FROM selected)` : Prisma.sql`NULL`} AS scope_chunk_count,
            (SELECT COALESCE(json_agg(json_build_object('word', w.word, 'lexemes',
                      (SELECT COALESCE(array_agg(l.lexeme), '{}')
                       FROM unnest(to_tsvector(${TEXT_SEARCH_CONFIG_SQL}, w.word)) l)) ORDER BY w.i), '[]'::json)
             FROM unnest(${unknownWords}::text[]) WITH ORDINALITY w(word, i)) AS query_words,
            COALESCE((SELECT json_agg(json_build_object('chunk_id', lex.chunk_id, 'bm25', lex.bm25, 'terms', lex.terms,
                        'memory_id', m.memory_id, 'session_id', m.session_id, 'session_position', m.session_position,
                        'role', m.role,
                        -- The row's other columns (hitOf): repeating the hit's cost 0.15 ms of a recall.
                        'row', CASE WHEN lex.rank <= ${ROWS_PER_TOP_K * request.topK}::int THEN json_build_object(
                          'content', m.content, 'metadata', m.metadata, 'scopes', m.scopes,
                          'identity_id', m.identity_id, 'occurred_at', m.occurred_at, 'created_at', m.created_at,
                          'valid_at', m.valid_at, 'invalid_at', m.invalid_at, 'superseded_by', m.superseded_by,
                          'supersession_kind', m.supersession_kind) END)
                      ORDER BY lex.rank)
                      -- Postings do not know expiry: a memory expired but not yet swept (a minute at most)
                      -- is left out here.
                      FROM (SELECT *, row_number() OVER (ORDER BY bm25 DESC, chunk_id COLLATE "C") AS rank FROM lex) lex
                      JOIN memory_chunks m ON m.id = lex.chunk_id AND ${Prisma.raw(notExpiredSql("m"))}),
                     '[]'::json) AS hits`,
  );
  noteChunkCount(request.namespaceId, row.namespace_chunk_count, commonMinChunks);
  const hits = row.hits.map((sent) => hitOf(sent, row.query_terms));
  const read = new Map(row.query_words.map(({ word, lexemes }) => [word, lexemes]));
  for (const [word, lexemes] of read) wordLexemes.set(wordKey(word), lexemes);
  const selection = row.scope_keys ? { keys: row.scope_keys, chunkCount: Number(row.scope_chunk_count) } : undefined;
  return {
    bm25Max: row.bm25_max,
    hits,
    truncated: hits.length >= limit,
    skippedBm25Max: row.skipped_bm25_max,
    selection,
    namespaceChunkCount: row.namespace_chunk_count,
    queryWords: words.map(({ word, lexemes }) => ({ word, lexemes: lexemes ?? read.get(word)! })),
    termWeights: row.term_weights,
  };
}
