import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { documentCitation, withPageCitations } from "../common/document-citation";
import { chatAnswer } from "./chat";
import { chatModel } from "@/lib/net/openai-client";
import { EXTRACTIVE_MODEL, extractiveAnswer } from "./extractive";
import { openAIConfigured } from "@/lib/net/openai-client";
import { contextTurnJson, recall } from "../search/recall";
import type { AskBody, AskResultJson, SourceJson } from "../common/schemas";
import type { ScoredChunk } from "../search/search";
import { answeringSources, whatChanged } from "./what-changed";

export const NOTHING_IN_MEMORY = "Nothing in memory answers this question.";

/**
 * When recall is confident in a match: it carries a fifth of the question's word weight, or (with no
 * words in common, a paraphrase) it is close in meaning, or it has both some of the question's words and
 * some closeness in meaning ("Where is Caroline travelling this summer?" — "I'm going to Portugal this
 * summer": 0.17 of the word weight, cosine 0.36). Unrelated USE-lite sentences sit around cosine 0.1–0.35;
 * paraphrases above 0.5.
 */
const RELEVANT_WORD_SHARE = 0.2;
const RELEVANT_COSINE = 0.5;
const SUPPORTING_COSINE = 0.3;

export function isRelevant(match: ScoredChunk): boolean {
  return (
    match.lexical >= RELEVANT_WORD_SHARE ||
    match.cosine >= RELEVANT_COSINE ||
    (match.lexical > 0 && match.cosine >= SUPPORTING_COSINE)
  );
}

/** Evidence of its own: a word of the question, or some closeness in meaning. */
function hasEvidence(match: ScoredChunk): boolean {
  return match.lexical > 0 || match.cosine >= SUPPORTING_COSINE;
}

/**
 * An answer to a question from the namespace's memories, citing them as `[n]`. Retrieval is `recall`,
 * with its permissions, scopes and filters; with `context: n`, a source is its match and the n turns
 * around it in its conversation, and the answerers read them all (with who said each and when). A chat
 * model writes the answer when an OpenAI-compatible endpoint is configured; otherwise, or when the
 * model's citations fail twice, the built-in extractive answerer does.
 */
export async function ask(principal: Principal, body: AskBody, activity: ActivityNote = {}): Promise<AskResultJson> {
  const { namespaceId, matches, asOf } = await recall(principal, body, activity);
  // Once recall is confident in one match, the answer reads all its top matches that have evidence of their
  // own, in recall's order: the one that answers is often not the one that shares the most words.
  const confident = matches.some(isRelevant);
  const sources: SourceJson[] = matches
    .filter((match) => confident && hasEvidence(match))
    .map((match, i) => ({
      index: i + 1,
      memory_id: match.memoryId,
      chunk_id: match.chunkId,
      content: match.content,
      score: match.score,
      session_id: match.sessionId,
      position: match.position,
      role: match.role,
      occurred_at: match.occurredAt.toISOString(),
      valid_at: match.validAt.toISOString(),
      invalid_at: match.invalidAt?.toISOString() ?? null,
      superseded_by: match.supersededBy,
      context: match.context.map(contextTurnJson),
      document: documentCitation(match.metadata),
    }));
  const useModel = openAIConfigured();
  activity.details = { sources: sources.length };
  if (sources.length === 0)
    return { answer: NOTHING_IN_MEMORY, sources, model: useModel ? chatModel() : EXTRACTIVE_MODEL };

  // What held then answers; what it replaced is cited as what held before.
  const { answering, ofChangedSlot } = answeringSources(body.query, matches, sources, asOf, body.identity_id);
  if (useModel) {
    const reply = await chatAnswer(body.query, answering);
    if ("answer" in reply) {
      return { answer: withPageCitations(whatChanged(reply.answer, sources), sources), sources, model: reply.model };
    }
    activity.details.fallback = reply.rejected;
  }
  // A statement of what changed says it whole ("The ramen bar closed, so now it's the dumpling house").
  const extracted = await extractiveAnswer(namespaceId, body.query, answering, { wholeSentence: ofChangedSlot });
  const answer = whatChanged(extracted, sources);
  return { answer: withPageCitations(answer, sources), sources, model: EXTRACTIVE_MODEL };
}
