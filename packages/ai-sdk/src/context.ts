import type { Memory } from "@memory-gateway/client";
import { recallCompact, targetOf, type MemoryTarget } from "./tools.ts";

export interface RecalledContextOptions extends MemoryTarget {
  /** What the memories should bear on: usually the user's latest message. */
  query: string;
  /** How many memories at most; default 5. */
  topK?: number;
  /** Leave out matches scoring less (0 to 1); by default every match the search returns. */
  minScore?: number;
  signal?: AbortSignal;
}

/**
 * A block of text for the system prompt listing the memories that match `query`, best first, each with its
 * day; an empty string when nothing matches, so that it can be appended to a prompt unconditionally.
 */
export async function recalledContext({
  query,
  topK = 5,
  minScore,
  signal,
  ...target
}: RecalledContextOptions): Promise<string> {
  const memories = await recallCompact(target, { query, top_k: topK, min_score: minScore }, signal);
  if (memories.length === 0) return "";
  const lines = memories.map((memory) => `- (${memory.occurred_at.slice(0, 10)}) ${memory.content}`);
  return ["What you remember about this user from earlier conversations (best match first):", ...lines].join("\n");
}

export interface ConversationTurn {
  role: string;
  content: string;
}

export interface RememberConversationOptions extends MemoryTarget {
  /** Your id for the conversation: turns stored under the same id later are appended after these. */
  sessionId: string;
  /** The turns in the order they were said, e.g. the user's message and the assistant's reply. */
  messages: ConversationTurn[];
  signal?: AbortSignal;
}

/** Stores an exchange as turns of a conversation, one memory each, recalled with the turns around them. */
export function rememberConversation({
  sessionId,
  messages,
  signal,
  ...target
}: RememberConversationOptions): Promise<Memory[]> {
  return target.client.remember({ ...targetOf(target), session_id: sessionId, messages }, { signal });
}
