import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { documentCitation, withPageCitations } from "../common/document-citation";
import { chatAnswer } from "./chat";
import { chatModel } from "@/lib/net/openai-client";
import { EXTRACTIVE_MODEL, extractiveAnswer } from "./extractive";
import { openAIConfigured } from "@/lib/net/openai-client";
import { RELEVANCE_FLOOR } from "../search/ranking";
import { contextTurnJson, recall } from "../search/recall";
import type { AskBody, AskResultJson, SourceJson } from "../common/schemas";
import type { ScoredChunk } from "../search/search";
import { answeringSources, whatChanged } from "./what-changed";

export const NOTHING_IN_MEMORY = "Nothing in memory answers this question.";

/**
 * Evidence of its own: a word of the question, the closeness in meaning recall's relevance floor asks for, or
 * holding the place, person or time the question asks for when recall found nothing else (a neighbouring turn
 * lending a match its share is no answer of its own).
 */
function hasEvidence(match: ScoredChunk): boolean {
  return match.lexical > 0 || match.cosine >= RELEVANCE_FLOOR.minSimilarity || match.holdsAnswer;
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
  // The answer reads what recall found, in its order, each match with evidence of its own: the one that answers
  // is often not the one sharing the most words, and an answer saying nothing while recall lists a match (a
  // question about "the user" asked with an identity, whose memories never say "user") contradicts it.
  const sources: SourceJson[] = matches.filter(hasEvidence).map((match, i) => ({
    index: i + 1,
    memory_id: match.memoryId,
    chunk_id: match.chunkId,
    content: match.content,
    score: match.relevance,
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
