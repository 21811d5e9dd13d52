import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { sentencesOf } from "../store/chunking";
import { embedder } from "../embeddings";
import type { SourceJson } from "../common/schemas";
import {
  LEADING_CONNECTIVE,
  clausesOf,
  ASKS_WHEN_NOW,
  holdsAnswerTo,
  whenIn,
  personIn,
  placeIn,
  quantityIn,
  questionKind,
  questionWordsOf,
} from "../text/answer-short";
import { withAbsoluteDates } from "../text/relative-dates";
import { asksWhen, dayOf, turnsOf } from "../text/source-text";
import { TEXT_SEARCH_CONFIG_SQL } from "../common/sql";
import { withWordBreaks } from "../common/word-breaks";

export const EXTRACTIVE_MODEL = "extractive";

/** Sentences weighed per answer, so that the cost of answering stays bounded whatever the sources' length. */
const MAX_SENTENCES = 80;
const MAX_ANSWER_SENTENCES = 3;
/** A sentence joins the answer when it scores at least this share of the best one. */
const KEEP_SHARE = 0.6;
/** Weight of the words a sentence shares with the question (IDF-weighted) against its similarity in meaning. */
const WORD_WEIGHT = 0.7;
/**
 * Share of the question's words counted for a sentence when they are in the sentence next to it
 * ("Dana …. She …").
 */
const NEIGHBOUR_WORDS = 0.5;
const QUESTION_END = /\?["'”’)\]]*$/;
/** A sentence that asks something repeats the question's words but rarely answers it: its score is discounted. */
const ASKED_WEIGHT = 0.5;

interface Sentence {
  text: string;
  sourceIndex: number;
  /** The order of its turn within the source (neighbouring turns before the match come first). */
  turn: number;
  /** The order of the sentence within its turn. */
  position: number;
  /** The turn's position in its conversation; null for a plain memory. */
  turnPosition: number | null;
  role: string | null;
  occurredAt: string;
}

/**
 * The built-in answerer, for when no chat model is configured: the sentences of the sources are weighed for
 * the question (the question's words they contain, weighted by rarity, and their similarity in meaning), and
 * the best one answers, short: the date, place, person or number the question asks for, or the clause holding
 * the question's words (see shortAnswer), citing its source as `[n]`. A source's turns (the match and the
 * neighbouring turns asked with `context`) all count as the source. A conversation turn's clause names who
 * said it ("Caroline: …") and its relative dates are resolved against the day it was said ("yesterday (7 May
 * 2023)"); a question about when gets that date, or the day it was said.
 */
export async function extractiveAnswer(
  namespaceId: string,
  query: string,
  sources: SourceJson[],
  options: {
    /** The sentence whole, not trimmed to the clause with the question's words (a statement of what changed). */
    wholeSentence?: boolean;
  } = {},
): Promise<string> {
  const sentences: Sentence[] = sources
    .flatMap((source) =>
      turnsOf(source).flatMap(({ content, role, occurredAt, position: turnPosition }, turn) =>
        sentencesOf(content).map((text, position) => ({
          text,
          sourceIndex: source.index,
          turn,
          position,
          turnPosition,
          role,
          occurredAt,
        })),
      ),
    )
    .slice(0, MAX_SENTENCES);
  // Who said a turn is part of its evidence: questions name the speaker, turns rarely do.
  const weighed = sentences.map((s) => (s.role ? `${s.role}: ${s.text}` : s.text));
  const [termWeights, vectors] = await Promise.all([
    weightedTerms(namespaceId, [query, ...weighed]),
    embedder().embed([query, ...weighed], "query"),
  ]);
  const [queryTerms, ...sentenceTerms] = termWeights;
  const [queryVector, ...sentenceVectors] = vectors;
  const queryWeight = [...queryTerms.values()].reduce((sum, weight) => sum + weight, 0);

  const sameSource = (i: number, j: number) => sentences[j]?.sourceIndex === sentences[i].sourceIndex;
  // In a conversation a question is answered by the next turn: the reply's first sentence holds the words of
  // the question it answers as its own ("Which novel should I read?" — "Try Becoming Nicole.").
  const repliesTo = (i: number) => {
    const previous = sentences[i - 1];
    const sentence = sentences[i];
    return (
      sameSource(i, i - 1) &&
      sentence.position === 0 &&
      sentence.turnPosition !== null &&
      previous.turnPosition === sentence.turnPosition - 1 &&
      QUESTION_END.test(previous.text)
    );
  };
  const scored = sentences.map((sentence, i) => {
    let shared = 0;
    const reply = repliesTo(i);
    for (const [term, weight] of queryTerms) {
      if (sentenceTerms[i].has(term) || (reply && sentenceTerms[i - 1].has(term))) shared += weight;
      else if (
        (sameSource(i, i - 1) && sentenceTerms[i - 1].has(term)) ||
        (sameSource(i, i + 1) && sentenceTerms[i + 1].has(term))
      ) {
        shared += NEIGHBOUR_WORDS * weight;
      }
    }
    const words = queryWeight > 0 ? shared / queryWeight : 0;
    const meaning = Math.max(0, dot(queryVector, sentenceVectors[i]));
    const asked = QUESTION_END.test(sentence.text) ? ASKED_WEIGHT : 1;
    return { ...sentence, score: asked * (WORD_WEIGHT * words + (1 - WORD_WEIGHT) * meaning) };
  });
  const best = Math.max(0, ...scored.map((s) => s.score));
  const seen = new Set<string>();
  const chosen = [...scored]
    .sort((a, b) => b.score - a.score)
    .filter((s) => {
      if (s.score < KEEP_SHARE * best || seen.has(s.text)) return false;
      seen.add(s.text);
      return true;
    })
    .slice(0, MAX_ANSWER_SENTENCES);
  // A question about when, where or who is answered by the best of the close candidates that holds a time, a
  // place or a person: the sentence sharing the most words often only speaks about it ("I finally booked my
  // summer trip" before "Portugal, two weeks in Lisbon").
  const kind = questionKind(query, asksWhen(query));
  const questionWords = questionWordsOf(query);
  const top = chosen.find((s) => holdsAnswerTo(kind, s.text, questionWords, s.occurredAt)) ?? chosen[0];
  if (!top) return "";
  // A sentence that starts "She …" or "It …" needs the one before it in its turn to say who or what.
  const before = scored.find(
    (s) => s.sourceIndex === top.sourceIndex && s.turn === top.turn && s.position === top.position - 1,
  );
  const lead = PRONOUN_START.test(top.text) && before ? before : null;
  // Likewise the answer may go on in the next sentence, about the same subject ("Dana …. She …").
  const after = chosen.find(
    (s) =>
      s.sourceIndex === top.sourceIndex &&
      s.turn === top.turn &&
      s.position === top.position + 1 &&
      PRONOUN_START.test(s.text),
  );
  // When the question's words end the sentence, what answers them is often the next one of the turn.
  const next = scored.find(
    (s) => s.sourceIndex === top.sourceIndex && s.turn === top.turn && s.position === top.position + 1,
  );
  const following = { after: lead ? undefined : after, next: after ? undefined : next };
  return shortAnswer(namespaceId, query, queryTerms, top, lead, following, options.wholeSentence === true);
}

const MIN_CONTINUATION_WORDS = 3;
const PRONOUN_START = /^(she|he|they|it|this|that)\b/i;
const REFERS_BACK = /\b(them|it|they|he|she|him|there)\b/i;

/**
 * The answer from the sentence that answers best: what the question asks for first when its wh-word asks
 * for a date, a place, a person or a number and the sentence holds one ("7 May 2023 [1]."), then the
 * clause of the sentence that holds the question's words, with who said it ("Caroline: I went to a LGBTQ
 * support group yesterday (7 May 2023) [1]."). A long sentence is trimmed to that clause: the rest of it is
 * what the speaker went on to say, not the answer.
 */
async function shortAnswer(
  namespaceId: string,
  query: string,
  queryTerms: Map<string, number>,
  top: Sentence,
  lead: Sentence | null,
  { after, next }: { after?: Sentence; next?: Sentence },
  wholeSentence: boolean,
): Promise<string> {
  const kind = questionKind(query, asksWhen(query));
  const resolved = withAbsoluteDates(top.text, top.occurredAt);
  const clauses = clausesOf(resolved.text, kind);
  const clauseTerms = await weightedTerms(namespaceId, clauses);
  let at = 0;
  let bestShared = 0;
  clauses.forEach((_, i) => {
    let shared = 0;
    for (const [term, weight] of queryTerms) if (clauseTerms[i].has(term)) shared += weight;
    if (shared > bestShared) {
      bestShared = shared;
      at = i;
    }
  });
  // The clause with the question's words and the one after it: the answer is often what follows the words
  // the question repeats ("I went to a counseling workshop, they talked about …").
  // A clause that speaks of "them" or "it" keeps the clause before it, which says what they are.
  const from = at > 0 && REFERS_BACK.test(clauses[at]) ? at - 1 : at;
  // A clause keeps the word that joins it to the one before ("since our last chat"): without it the meaning
  // changes. Only the answer's first clause drops it.
  const clause =
    clauses.length && !wholeSentence
      ? clauses
          .slice(from, at + 2)
          .join(", ")
          .replace(LEADING_CONNECTIVE, "")
      : resolved.text;
  let continuation = "";
  if (next && at + 1 >= clauses.length) {
    const continued = clausesOf(withAbsoluteDates(next.text, next.occurredAt).text, kind)[0]?.replace(
      LEADING_CONNECTIVE,
      "",
    );
    // "Yay!" or "Thanks." after it adds nothing.
    if (continued && continued.split(/\s+/).length >= MIN_CONTINUATION_WORDS)
      continuation = ` ${cite(capitalized(continued), next.sourceIndex)}`;
  }
  const questionWords = questionWordsOf(query);
  const direct =
    kind === "when"
      ? whenIn(resolved.dates, resolved.text, dayOf(top.occurredAt), ASKS_WHEN_NOW.test(query))
      : kind === "where"
        ? (placeIn(clause, questionWords) ?? placeIn(resolved.text, questionWords))
        : kind === "who"
          ? (personIn(clause, questionWords) ?? personIn(resolved.text, questionWords))
          : kind === "quantity"
            ? (quantityIn(clause) ?? quantityIn(resolved.text))
            : null;
  const speaker = top.role ? `${speakerName(top.role)}: ` : "";
  const leading = lead
    ? cite(`${speaker}${withAbsoluteDates(lead.text, lead.occurredAt).text}`, lead.sourceIndex) + " "
    : "";
  const support = lead
    ? `${leading}${cite(capitalized(clause), top.sourceIndex)}`
    : cite(`${speaker}${capitalized(clause)}`, top.sourceIndex);
  const following = after ? ` ${cite(withAbsoluteDates(after.text, after.occurredAt).text, after.sourceIndex)}` : "";
  if (!direct) return support + following + continuation;
  // The date, place, person or number alone: the cited source says who said it and how.
  return cite(capitalized(direct), top.sourceIndex);
}

/** How an answer names who said a turn: the speaker's name, or for the generic roles, who they are. */
export function speakerName(role: string): string {
  const generic: Record<string, string> = { user: "The user", assistant: "The assistant", system: "The system" };
  return generic[role.toLowerCase()] ?? role;
}

/** A clause cut from the middle of a sentence, written as the start of one. */
function capitalized(text: string): string {
  return text ? `${text[0].toUpperCase()}${text.slice(1)}` : text;
}

/** Puts the citation before the sentence's closing punctuation: `Dana prefers mornings [1].` */
function cite(sentence: string, index: number): string {
  const match = /[.!?]+["'”’)\]]*$/.exec(sentence);
  if (!match) return `${sentence} [${index}].`;
  return `${sentence.slice(0, match.index).trimEnd()} [${index}]${match[0]}`;
}

function dot(a: number[], b: number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

/**
 * Each text's stemmed terms (the full-text configuration recall uses) with their IDF in the namespace,
 * in one statement.
 */
async function weightedTerms(namespaceId: string, texts: string[]): Promise<Map<string, number>[]> {
  const rows = await (
    await db()
  ).$queryRaw<{ ord: number; terms: Record<string, number> }[]>(
    Prisma.sql`WITH texts AS (SELECT t.text, t.ord
                              FROM unnest(${texts.map(withWordBreaks)}::text[]) WITH ORDINALITY AS t(text, ord)),
          stats AS (SELECT COALESCE(max(chunk_count), 0)::float8 AS n FROM namespace_search_stats
                    WHERE namespace_id = ${namespaceId})
     SELECT texts.ord::int AS ord,
            COALESCE(json_object_agg(l.lexeme, ln(1 + (stats.n - COALESCE(t.df, 0) + 0.5) / (COALESCE(t.df, 0) + 0.5)))
                       FILTER (WHERE l.lexeme IS NOT NULL), '{}'::json) AS terms
     FROM texts
     CROSS JOIN stats
     LEFT JOIN LATERAL unnest(to_tsvector(${TEXT_SEARCH_CONFIG_SQL}, texts.text)) l ON true
     LEFT JOIN namespace_terms t ON t.namespace_id = ${namespaceId} AND t.term = l.lexeme
     GROUP BY texts.ord`,
  );
  const byOrder = new Map(rows.map((row) => [row.ord, new Map(Object.entries(row.terms))]));
  return texts.map((_, i) => byOrder.get(i + 1) ?? new Map());
}
