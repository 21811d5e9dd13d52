import { db } from "@/lib/db";
import { sentencesOf } from "./chunking";
import { embedder } from "./embeddings";
import type { SourceJson } from "./schemas";
import { TEXT_SEARCH_CONFIG } from "./sql";

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

interface Sentence {
  text: string;
  sourceIndex: number;
  position: number;
}

/**
 * The built-in answerer, for when no chat model is configured: the sentences of the sources that best
 * answer the question (the question's words they contain, weighted by rarity, and their similarity in
 * meaning), best first, each citing its source as `[n]`.
 */
export async function extractiveAnswer(namespaceId: string, query: string, sources: SourceJson[]): Promise<string> {
  const sentences: Sentence[] = sources
    .flatMap((source) =>
      sentencesOf(source.content).map((text, position) => ({ text, sourceIndex: source.index, position })),
    )
    .slice(0, MAX_SENTENCES);
  const [termWeights, vectors] = await Promise.all([
    weightedTerms(namespaceId, [query, ...sentences.map((s) => s.text)]),
    embedder().embed([query, ...sentences.map((s) => s.text)], "query"),
  ]);
  const [queryTerms, ...sentenceTerms] = termWeights;
  const [queryVector, ...sentenceVectors] = vectors;
  const queryWeight = [...queryTerms.values()].reduce((sum, weight) => sum + weight, 0);

  const sameSource = (i: number, j: number) => sentences[j]?.sourceIndex === sentences[i].sourceIndex;
  const scored = sentences.map((sentence, i) => {
    let shared = 0;
    for (const [term, weight] of queryTerms) {
      if (sentenceTerms[i].has(term)) shared += weight;
      else if (
        (sameSource(i, i - 1) && sentenceTerms[i - 1].has(term)) ||
        (sameSource(i, i + 1) && sentenceTerms[i + 1].has(term))
      ) {
        shared += NEIGHBOUR_WORDS * weight;
      }
    }
    const words = queryWeight > 0 ? shared / queryWeight : 0;
    const meaning = Math.max(0, dot(queryVector, sentenceVectors[i]));
    return { ...sentence, score: WORD_WEIGHT * words + (1 - WORD_WEIGHT) * meaning };
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
  // Read in the sources' order (the best source first) and, within a source, in the text's order.
  return chosen
    .sort((a, b) => a.sourceIndex - b.sourceIndex || a.position - b.position)
    .map((s) => cite(s.text, s.sourceIndex))
    .join(" ");
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
  ).$queryRawUnsafe<{ ord: number; terms: Record<string, number> }[]>(
    `WITH texts AS (SELECT t.text, t.ord FROM unnest($2::text[]) WITH ORDINALITY AS t(text, ord)),
          stats AS (SELECT COALESCE(max(chunk_count), 0)::float8 AS n FROM namespace_search_stats
                    WHERE namespace_id = $1)
     SELECT texts.ord::int AS ord,
            COALESCE(json_object_agg(l.lexeme, ln(1 + (stats.n - COALESCE(t.df, 0) + 0.5) / (COALESCE(t.df, 0) + 0.5)))
                       FILTER (WHERE l.lexeme IS NOT NULL), '{}'::json) AS terms
     FROM texts
     CROSS JOIN stats
     LEFT JOIN LATERAL unnest(to_tsvector('${TEXT_SEARCH_CONFIG}', texts.text)) l ON true
     LEFT JOIN namespace_terms t ON t.namespace_id = $1 AND t.term = l.lexeme
     GROUP BY texts.ord`,
    namespaceId,
    texts,
  );
  const byOrder = new Map(rows.map((row) => [row.ord, new Map(Object.entries(row.terms))]));
  return texts.map((_, i) => byOrder.get(i + 1) ?? new Map());
}
