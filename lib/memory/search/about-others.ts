import { statementSubject } from "../validity/statements";
import type { ScoredChunk } from "./search";

/**
 * Recall's matches for a question asked of one identity's memories (`identity_id`), with the identity's
 * statements about someone else ("my brother lives near the harbour": about another person, named by their
 * relation) after its statements about itself, unless the question names that relation ("Where does Dana's
 * brother live?"): a question about the identity is answered by what it said of itself. Conversation turns are
 * left as they are (a turn's subject is read from its context). Each part keeps recall's order.
 */
export function othersLower(query: string, identityId: string | undefined, matches: ScoredChunk[]): ScoredChunk[] {
  if (identityId === undefined) return matches;
  const others = matches.filter((match) => aboutOthers(query, match));
  return others.length === 0 ? matches : [...matches.filter((match) => !aboutOthers(query, match)), ...others];
}

/** Whether a plain memory is a statement about another person whom the question does not name. */
export function aboutOthers(query: string, match: Pick<ScoredChunk, "sessionId" | "content">): boolean {
  if (match.sessionId !== null) return false;
  const subject = statementSubject(match.content);
  return subject !== "self" && !query.toLowerCase().includes(subject);
}
