import OpenAI from "openai";
import { UpstreamError } from "@/lib/errors";
import { chatModel, openAIClient, openAITimeoutMs } from "@/lib/net/openai-client";
import type { SourceJson } from "../common/schemas";
import { dayOf, turnsOf } from "../text/source-text";

export const ANSWER_INSTRUCTIONS = [
  "You answer questions from the user's memory store, using only the numbered sources given with the question.",
  "Cite the source of every statement with its number in square brackets, like [1] or [2][3], " +
    "and use no other numbers.",
  "Each source gives the day it happened (UTC) and, for a turn of a conversation, who said it; " +
    'words like "yesterday" or "last week" in a source are relative to its day. ' +
    "Answer questions about when with dates.",
  "If the sources do not answer the question, say that nothing in memory answers it.",
  "Never add facts that are not in the sources. Answer briefly, in the language of the question.",
].join(" ");

export type ChatReply = { answer: string; model: string } | { rejected: string };

/** The indices an answer cites: `[2]`, and each of `[1, 3]`. */
export function citedIndices(answer: string): number[] {
  return [...answer.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)].flatMap((match) =>
    match[1].split(",").map((n) => Number(n.trim())),
  );
}

/** What is wrong with a reply's citations, or undefined when every cited index exists and one at least is cited. */
function citationProblem(answer: string, sourceCount: number): string | undefined {
  const cited = citedIndices(answer);
  const unknown = cited.filter((index) => index < 1 || index > sourceCount);
  if (unknown.length) return `cited [${unknown.join("], [")}], but the sources are numbered 1 to ${sourceCount}`;
  if (cited.length === 0) return "cited no source";
  return undefined;
}

/**
 * Has the configured chat model (CHAT_MODEL on the OpenAI-compatible endpoint) answer from the numbered
 * sources. A reply whose citations fail the check is asked for once more; a second failure is returned
 * as `rejected`, for the caller to answer without the model. Provider errors and time-outs → 502.
 */
export async function chatAnswer(query: string, sources: SourceJson[]): Promise<ChatReply> {
  const model = chatModel();
  const client = openAIClient({ maxRetries: 0 });
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: "system", content: ANSWER_INSTRUCTIONS },
    {
      role: "user",
      content: `Sources:\n\n${sources.map(sourceText).join("\n\n")}\n\nQuestion: ${query}`,
    },
  ];
  let problem = "";
  for (let attempt = 1; attempt <= 2; attempt++) {
    const completion = await complete(client, model, messages);
    const answer = completion.choices[0]?.message?.content?.trim() ?? "";
    const found = answer ? citationProblem(answer, sources.length) : "gave an empty answer";
    if (!found) return { answer, model: completion.model || model };
    problem = found;
    messages.push(
      { role: "assistant", content: answer },
      {
        role: "user",
        content:
          `Your answer ${found}. ` +
          `Answer again from the sources only, citing each statement as [n] with n from 1 to ${sources.length}.`,
      },
    );
  }
  return { rejected: `the chat model ${problem}, twice` };
}

/**
 * A source as the model reads it: `[1] (7 May 2023) Caroline: …`; with neighbouring turns, the passage
 * of the conversation, the matching turn marked.
 */
export function sourceText(source: SourceJson): string {
  const turns = turnsOf(source);
  const line = (turn: (typeof turns)[number]) =>
    `(${dayOf(turn.occurredAt)}) ${turn.role ? `${turn.role}: ` : ""}${turn.content}`;
  if (source.document) {
    const { title, page, section } = source.document;
    const where = [title && `"${title}"`, page !== null && `p. ${page}`, section].filter(Boolean).join(", ");
    return `[${source.index}] (from the document ${where}) ${turns[0].content}`;
  }
  if (turns.length === 1) return `[${source.index}] ${line(turns[0])}`;
  return (
    `[${source.index}] A passage of a conversation, the matching turn marked ">":\n` +
    turns.map((turn) => `${turn.isMatch ? ">" : "-"} ${line(turn)}`).join("\n")
  );
}

async function complete(client: OpenAI, model: string, messages: OpenAI.Chat.ChatCompletionMessageParam[]) {
  try {
    return await client.chat.completions.create({ model, messages, temperature: 0 });
  } catch (error) {
    if (error instanceof OpenAI.APIConnectionTimeoutError) {
      throw new UpstreamError(
        `The chat model (${model}) did not answer within ${openAITimeoutMs()} ms (OPENAI_TIMEOUT_MS).`,
      );
    }
    const status = error instanceof OpenAI.APIError && error.status ? ` with status ${error.status}` : "";
    throw new UpstreamError(`The chat model (${model}) failed${status}: ${(error as Error).message}`);
  }
}
