import OpenAI from "openai";
import { setting } from "@/lib/config";
import { PermanentJobError, RetryLaterError } from "@/lib/jobs/queue";
import { chatModel, openAIClient, openAITimeoutMs } from "@/lib/net/openai-client";
import {
  answerProblem,
  EXTRACTION_INSTRUCTIONS,
  EXTRACTION_JSON_SCHEMA,
  ExtractionAnswer,
  extractionPrompt,
  type NumberedStatement,
} from "./model-answer";

/** A 429 without Retry-After waits this long; one asking for longer than the cap is waited for that long at most. */
const DEFAULT_RETRY_AFTER_MS = 5_000;
const MAX_RETRY_AFTER_MS = 10 * 60_000;
/** The longest answer asked for (50 facts of a short sentence each fit). */
const MAX_ANSWER_TOKENS = 4_000;
/** Fewer tokens than this left for the answer: not worth a call. */
const MIN_ANSWER_TOKENS = 256;

/** Thrown when an attempt failed in a way that may pass (5xx, time-out, no connection): retried with backoff. */
export class ModelUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelUnavailableError";
  }
}

/** Tokens spent so far: counted by askModel as it goes, so that a caller reads them whatever it throws. */
export interface TokenCount {
  tokens: number;
}

/** The model's decisions about a write, and which model made them (as the server names it). */
export interface ModelDecisions {
  answer: ExtractionAnswer;
  model: string;
}

/**
 * Asks the chat model (CHAT_MODEL) which facts `sources` state and what they do to `current`, spending at most
 * `budget` tokens (the write's INFER_TOKEN_BUDGET less what earlier attempts spent; counted as the server reports
 * them, or estimated at 4 characters a token). The answer is asked for as JSON under a schema (`response_format`;
 * a server that refuses it is asked again without), then checked with zod and for numbers it was never given: a
 * bad answer is asked for once more with what was wrong, and a second one fails the job for good, as do a budget
 * too small for the prompt and any 4xx. 429 → RetryLaterError (its Retry-After); 5xx, time-outs and lost
 * connections, 408 and 409 → ModelUnavailableError (retried with backoff by the job); a 429 saying the account's
 * quota is spent is for good. What was spent is added to `spent` as it goes (also when it throws).
 */
export async function askModel(
  sources: NumberedStatement[],
  current: NumberedStatement[],
  budget: number,
  spent: TokenCount,
): Promise<ModelDecisions> {
  const model = chatModel();
  const client = openAIClient({ maxRetries: 0 });
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: "system", content: EXTRACTION_INSTRUCTIONS },
    { role: "user", content: extractionPrompt(sources, current) },
  ];
  const numbers = `S1 to S${sources.length}` + (current.length ? ` and C1 to C${current.length}` : "");
  let schema = true;
  let problem = "";
  for (let answers = 0; ;) {
    const promptTokens = Math.ceil(messages.reduce((sum, m) => sum + String(m.content).length, 0) / 4);
    const maxTokens = Math.min(MAX_ANSWER_TOKENS, budget - spent.tokens - promptTokens);
    if (maxTokens < MIN_ANSWER_TOKENS) {
      throw new PermanentJobError(
        `The write needs about ${promptTokens + MIN_ANSWER_TOKENS} tokens of the chat model, over what is left ` +
          "of its " +
          `budget (${budget - spent.tokens} of INFER_TOKEN_BUDGET ${setting("INFER_TOKEN_BUDGET")})` +
          (problem ? ` after an answer that ${problem}` : ""),
      );
    }
    let completion: OpenAI.Chat.ChatCompletion;
    try {
      completion = await client.chat.completions.create({
        model,
        messages,
        temperature: 0,
        max_tokens: maxTokens,
        response_format: schema
          ? { type: "json_schema", json_schema: { name: "facts", strict: true, schema: EXTRACTION_JSON_SCHEMA } }
          : { type: "json_object" },
      });
    } catch (error) {
      if (schema && error instanceof OpenAI.BadRequestError && /response_format|json_schema/i.test(error.message)) {
        schema = false;
        continue;
      }
      throw classified(error, model);
    }
    spent.tokens +=
      completion.usage?.total_tokens ??
      promptTokens + Math.ceil(String(completion.choices[0]?.message?.content).length / 4);
    const text = completion.choices[0]?.message?.content ?? "";
    answers += 1;
    problem = parsedProblem(text, sources.length, current.length);
    if (!problem) return { answer: ExtractionAnswer.parse(JSON.parse(text)), model: completion.model || model };
    if (answers >= 2) break;
    messages.push(
      { role: "assistant", content: text },
      {
        role: "user",
        content: `Your answer ${problem}. Answer again with JSON only, in the shape asked, using only ${numbers}.`,
      },
    );
  }
  throw new PermanentJobError(`The chat model (${model}) answered wrongly twice: its answer ${problem}`);
}

/** What is wrong with the text of an answer, or "" when it is a valid answer. */
function parsedProblem(text: string, sourceCount: number, currentCount: number): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return "was not JSON";
  }
  const parsed = ExtractionAnswer.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `did not have the shape asked (${issue.path.join(".") || "the answer"}: ${issue.message})`;
  }
  return answerProblem(parsed.data, sourceCount, currentCount) ?? "";
}

/** A failed call as the job takes it: wait and retry (429), retry with backoff (5xx, time-out), or give up (4xx). */
function classified(error: unknown, model: string): Error {
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new ModelUnavailableError(
      `The chat model (${model}) did not answer within ${openAITimeoutMs()} ms (OPENAI_TIMEOUT_MS)`,
    );
  }
  if (error instanceof OpenAI.APIError && error.status === 429 && error.code !== "insufficient_quota") {
    const header = error.headers?.get?.("retry-after") ?? null;
    const seconds = header === null || header.trim() === "" ? NaN : Number(header);
    const delay = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_RETRY_AFTER_MS;
    return new RetryLaterError(Math.min(MAX_RETRY_AFTER_MS, delay), `The chat model (${model}) is rate-limited (429)`);
  }
  // 408 and 409 are a server's way to say "not now": tried again like a 5xx.
  if (
    error instanceof OpenAI.APIError &&
    error.status !== undefined &&
    error.status < 500 &&
    ![408, 409].includes(error.status)
  ) {
    return new PermanentJobError(
      `The chat model (${model}) refused the request with status ${error.status}: ${error.message}`,
    );
  }
  const status = error instanceof OpenAI.APIError && error.status ? ` with status ${error.status}` : "";
  return new ModelUnavailableError(`The chat model (${model}) failed${status}: ${(error as Error).message}`);
}
