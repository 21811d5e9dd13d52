// Where a memory comes from: what a caller wrote (kind `memory`) or an atomic fact a chat model extracted from such
// memories (kind `fact`, lib/memory/inference), and the state of that extraction on the memories it read.
import { z } from "zod";

export const Timestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");

/** The states of an extraction job, as a memory it reads shows them. */
export const INFERENCE_STATUSES = ["queued", "running", "done", "failed"] as const;
export type InferenceStatus = (typeof INFERENCE_STATUSES)[number];

/** What a memory's `inference` column holds (lib/memory/inference/extraction-job.ts writes it). */
export interface InferenceState {
  status: InferenceStatus;
  /** Attempts that called the model (a 429 waited out does not count). */
  attempts: number;
  /** Tokens the model spent on it so far (prompt and answer, every attempt): bounded by INFER_TOKEN_BUDGET. */
  tokens: number;
  /** Times the model answered 429 (waited out, not attempts): a write fails past 50. */
  rate_limited: number;
  /** The facts written from it (none yet, or the model found nothing new). */
  facts: string[];
  /** Why the last attempt failed: kept while it is retried, and once it has failed for good. */
  error: string | null;
  model: string | null;
  updated_at: string;
}

export const InferenceSchema = z
  .object({
    status: z
      .enum(INFERENCE_STATUSES)
      .describe("queued, running (retried on 429, 5xx and time-outs), done, or failed (the memory stays as written)"),
    attempts: z.number().int().describe("calls of the model so far"),
    tokens: z.number().int().describe("tokens the model spent on it so far (bounded per write)"),
    rate_limited: z.number().int().describe("times the model answered 429 (waited out without spending attempts)"),
    facts: z.array(z.string()).describe("the facts (memories of kind fact) extracted from it"),
    error: z.string().nullable().describe("why the last attempt failed"),
    model: z.string().nullable().describe("the chat model"),
    updated_at: Timestamp,
  })
  .nullable()
  .describe("the chat model's extraction of facts from it (`infer`); null when it was not given to a model");

/** In every memory shape. */
export const OriginOutput = {
  kind: z
    .enum(["memory", "fact"])
    .describe("memory: written by a caller; fact: extracted by a chat model from the memories in derived_from"),
  derived_from: z.array(z.string()).describe("a fact's sources: forgetting one of them forgets the fact"),
  inference: InferenceSchema,
};

export interface OriginRow {
  kind: string;
  derivedFrom: string[];
  inference: unknown;
}

/** A memory's origin as the API shows it; `inference` as stored (null when the memory was not given to a model). */
export function originJson(row: OriginRow) {
  return {
    kind: row.kind as "memory" | "fact",
    derived_from: row.derivedFrom,
    inference: (row.inference ?? null) as InferenceState | null,
  };
}

/** What remember takes. */
export const InferInput = {
  infer: z
    .boolean({ error: "must be true or false" })
    .optional()
    .describe(
      "have the chat model extract atomic facts from what is written and keep them current (needs OPENAI_BASE_URL " +
        "or OPENAI_API_KEY on the server); default: the namespace's `infer`",
    ),
};
