import type { MemoryGateway } from "@memory-gateway/client";
import { tool } from "ai";
import { z } from "zod";

/** Whose memory the tools read and write: a namespace, and within it one identity and scopes if given. */
export interface MemoryTarget {
  client: MemoryGateway;
  namespaceId: string;
  /** Whom the memories are about (a user's id): remember stores for it, recall and ask read only its memories. */
  identityId?: string;
  /** Pairs every stored memory carries and every read requires, e.g. `{ app: "support" }`. */
  scopes?: Record<string, string>;
}

/** A recalled memory as the model sees it: what it says, how well it matched, and when it happened. */
export interface RecalledMemory {
  content: string;
  score: number;
  memory_id: string;
  occurred_at: string;
}

/** The parameters every call shares: the namespace and, when set, the identity and scopes. */
export function targetOf({ namespaceId, identityId, scopes }: MemoryTarget) {
  return { namespace_id: namespaceId, identity_id: identityId, scopes };
}

/** The best matches for a query, cut down to what a prompt needs (the API's Match carries much more). */
export async function recallCompact(
  target: MemoryTarget,
  search: { query: string; top_k: number; min_score?: number },
  signal?: AbortSignal,
): Promise<RecalledMemory[]> {
  const matches = await target.client.recall({ ...targetOf(target), ...search }, { signal });
  return matches.map(({ content, score, memory_id, occurred_at }) => ({ content, score, memory_id, occurred_at }));
}

/**
 * The Memory Gateway tools for `generateText` / `streamText`: `remember` stores a fact, `recall` finds the
 * memories that match a query, `ask` answers a question from them with citations. Pass them as `tools`, or
 * pick the ones the model may use (`{ recall: tools.recall }` for a read-only assistant).
 */
export function memoryTools(target: MemoryTarget) {
  return {
    remember: tool({
      description:
        "Store a fact worth remembering for later conversations (a preference, a plan, a detail about the user). " +
        "Write it as one self-contained sentence.",
      inputSchema: z.object({
        content: z.string().min(1).max(100_000).describe("The fact, as a self-contained sentence"),
      }),
      execute: async ({ content }, { abortSignal }) => {
        const memory = await target.client.remember({ ...targetOf(target), content }, { signal: abortSignal });
        return { memory_id: memory.id, content: memory.content, deduplicated: memory.deduplicated ?? false };
      },
    }),
    recall: tool({
      description:
        "Search long-term memory for what is known that bears on a query. Returns the best matches first, " +
        "each with its score (0 to 1) and when it happened.",
      inputSchema: z.object({
        query: z.string().min(1).max(4_000).describe("What to look for, in a few words or a question"),
        top_k: z.number().int().min(1).max(20).default(5).describe("How many memories to return"),
      }),
      execute: (search, { abortSignal }) => recallCompact(target, search, abortSignal),
    }),
    ask: tool({
      description:
        "Answer a question from long-term memory. The answer cites its sources as [1], [2]; " +
        '"Nothing in memory answers this question." when nothing does.',
      inputSchema: z.object({
        question: z.string().min(1).max(4_000).describe("The question"),
      }),
      execute: async ({ question }, { abortSignal }) => {
        const { answer, sources } = await target.client.ask(
          { ...targetOf(target), query: question },
          { signal: abortSignal },
        );
        return {
          answer,
          sources: sources.map(({ index, memory_id, content }) => ({ index, memory_id, content })),
        };
      },
    }),
  };
}
