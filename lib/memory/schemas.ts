import { z } from "zod";
import { Scopes } from "@/lib/auth/scopes";
import { identifier, record, text } from "@/lib/validation/strings";

/** Limits on memory operations (README "Limits"). */
export const LIMITS = {
  contentChars: 100_000,
  batchSize: 100,
  queryChars: 4_000,
  metadataBytes: 8_192,
  metadataKeys: 64,
  scopePairs: 16,
  topK: 100,
  askTopK: 20,
  forgetIds: 1_000,
} as const;

export const TargetId = identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" });
const Target = {
  namespace_id: TargetId.optional(),
  external_reference_id: TargetId.optional(),
};
export type Target = { namespace_id?: string; external_reference_id?: string };

/** The OpenAPI document's statement of the rule exactlyOneTarget enforces. */
export const TARGET_RULE = { oneOf: [{ required: ["namespace_id"] }, { required: ["external_reference_id"] }] };

export function exactlyOneTarget(body: Target, ctx: z.RefinementCtx) {
  if ((body.namespace_id === undefined) === (body.external_reference_id === undefined)) {
    ctx.addIssue({ code: "custom", message: "send exactly one of namespace_id and external_reference_id", path: [] });
  }
}

const Content = text({ max: LIMITS.contentChars, notBlank: true });

export const IdentityId = identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" });

const MetadataValue = z.union([text(), z.number(), z.boolean(), z.null()], {
  error: "metadata values must be strings, numbers, booleans or null",
});
export const Metadata = record(identifier({ min: 1, max: 128 }), MetadataValue)
  .refine((m) => Object.keys(m).length <= LIMITS.metadataKeys, `at most ${LIMITS.metadataKeys} keys`)
  .refine(
    (m) => Buffer.byteLength(JSON.stringify(m)) <= LIMITS.metadataBytes,
    `at most ${LIMITS.metadataBytes} bytes as JSON`,
  )
  .meta({ maxProperties: LIMITS.metadataKeys });
export type Metadata = z.infer<typeof Metadata>;

const ScopesInput = Scopes.refine(
  (s) => Object.keys(s).length <= LIMITS.scopePairs,
  `at most ${LIMITS.scopePairs} scope pairs`,
).meta({ maxProperties: LIMITS.scopePairs });

const MemoryFields = {
  metadata: Metadata.optional(),
  scopes: ScopesInput.optional(),
  identity_id: IdentityId.optional(),
};

export const MemoryItem = z.strictObject({ content: Content, ...MemoryFields });
export type MemoryItem = z.infer<typeof MemoryItem>;

export const RememberBody = z
  .strictObject({
    ...Target,
    content: Content.optional(),
    memories: z
      .array(MemoryItem)
      .min(1, "send 1 to 100 memories")
      .max(LIMITS.batchSize, `send at most ${LIMITS.batchSize} memories in one call`)
      .optional()
      .describe("a batch; metadata, scopes and identity_id beside it apply to items that do not set their own"),
    ...MemoryFields,
  })
  .superRefine((body, ctx) => {
    exactlyOneTarget(body, ctx);
    if ((body.content === undefined) === (body.memories === undefined)) {
      ctx.addIssue({ code: "custom", message: "send either content or memories", path: [] });
    }
  })
  .meta({ allOf: [TARGET_RULE, { oneOf: [{ required: ["content"] }, { required: ["memories"] }] }] });
export type RememberBody = z.infer<typeof RememberBody>;

const Query = text({ max: LIMITS.queryChars, notBlank: true });

export const RecallBody = z
  .strictObject({
    ...Target,
    query: Query,
    top_k: z
      .number({ error: "must be a whole number from 1 to 100" })
      .int("must be a whole number from 1 to 100")
      .min(1, "must be a whole number from 1 to 100")
      .max(LIMITS.topK, "must be a whole number from 1 to 100")
      .default(10),
    min_score: z
      .number({ error: "must be a number from 0 to 1" })
      .min(0, "must be a number from 0 to 1")
      .max(1, "must be a number from 0 to 1")
      .optional(),
    scopes: ScopesInput.optional(),
    identity_id: IdentityId.optional(),
    metadata: Metadata.optional().describe("only memories whose metadata has these exact values"),
  })
  .superRefine(exactlyOneTarget)
  .meta(TARGET_RULE);
export type RecallBody = z.infer<typeof RecallBody>;

const ASK_TOP_K_MESSAGE = `must be a whole number from 1 to ${LIMITS.askTopK}`;

export const AskBody = z
  .strictObject({
    ...Target,
    query: Query.describe("the question"),
    top_k: z
      .number({ error: ASK_TOP_K_MESSAGE })
      .int(ASK_TOP_K_MESSAGE)
      .min(1, ASK_TOP_K_MESSAGE)
      .max(LIMITS.askTopK, ASK_TOP_K_MESSAGE)
      .default(5)
      .describe("how many memories to answer from"),
    scopes: ScopesInput.optional(),
    identity_id: IdentityId.optional(),
  })
  .superRefine(exactlyOneTarget)
  .meta(TARGET_RULE);
export type AskBody = z.infer<typeof AskBody>;

export const ForgetBody = z
  .strictObject({
    ...Target,
    memory_ids: z
      .array(identifier({ min: 1 }))
      .min(1, "list at least one id")
      .max(LIMITS.forgetIds, `at most ${LIMITS.forgetIds} ids`)
      .optional(),
    identity_id: IdentityId.optional(),
    scopes: ScopesInput.meta({ maxProperties: LIMITS.scopePairs, minProperties: 1 }).optional(),
    metadata: Metadata.meta({ maxProperties: LIMITS.metadataKeys, minProperties: 1 }).optional(),
    all: z.literal(true, { error: "must be true (omit it otherwise)" }).optional(),
  })
  .superRefine((body, ctx) => {
    exactlyOneTarget(body, ctx);
    const selectors = [body.memory_ids, body.identity_id, body.scopes, body.metadata].filter((s) => s !== undefined);
    if (selectors.length === 0 && !body.all) {
      ctx.addIssue({
        code: "custom",
        message: "say what to forget: memory_ids, identity_id, scopes, metadata, or all: true",
        path: [],
      });
    }
    if (selectors.length > 0 && body.all) {
      ctx.addIssue({ code: "custom", message: "all: true cannot be combined with other selectors", path: ["all"] });
    }
    if (body.scopes && Object.keys(body.scopes).length === 0)
      ctx.addIssue({ code: "custom", message: "must name at least one scope", path: ["scopes"] });
    if (body.metadata && Object.keys(body.metadata).length === 0)
      ctx.addIssue({ code: "custom", message: "must name at least one key", path: ["metadata"] });
  })
  .meta({
    allOf: [
      TARGET_RULE,
      {
        oneOf: [
          { required: ["all"] },
          { anyOf: ["memory_ids", "identity_id", "scopes", "metadata"].map((selector) => ({ required: [selector] })) },
        ],
      },
    ],
  });
export type ForgetBody = z.infer<typeof ForgetBody>;

export const MemoryIdParams = z.strictObject({ id: identifier({ min: 1 }) });

const Timestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");

export const MemorySchema = z.object({
  id: z.string(),
  namespace_id: z.string(),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  scopes: z.record(z.string(), z.string()),
  identity_id: z.string().nullable(),
  chunk_count: z.number(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type MemoryJson = z.infer<typeof MemorySchema>;

export const MatchSchema = z.object({
  memory_id: z.string(),
  chunk_id: z.string(),
  content: z.string().describe("the matching chunk"),
  score: z.number().min(0).max(1).describe("0 to 1, higher is better"),
  metadata: z.record(z.string(), z.unknown()),
  scopes: z.record(z.string(), z.string()),
  identity_id: z.string().nullable(),
  created_at: Timestamp,
});
export type MatchJson = z.infer<typeof MatchSchema>;

export const SourceSchema = z.object({
  index: z.number().int().min(1).describe("what the answer cites as [index]"),
  memory_id: z.string(),
  chunk_id: z.string(),
  content: z.string(),
  score: z.number().min(0).max(1),
});
export type SourceJson = z.infer<typeof SourceSchema>;

export const AskResultSchema = z.object({
  answer: z.string().describe("the answer, citing its sources as [1], [2]; says so when nothing in memory answers"),
  sources: z.array(SourceSchema).describe("the memories the answer was made from; empty when none is relevant"),
  model: z.string().describe('the chat model that wrote the answer, or "extractive" for the built-in answerer'),
});
export type AskResultJson = z.infer<typeof AskResultSchema>;

export const ForgetResultSchema = z.object({ deleted: z.number(), memory_ids: z.array(z.string()) });

export function memoryJson(row: {
  id: string;
  namespaceId: string;
  content: string;
  metadata: unknown;
  scopes: unknown;
  identityId: string | null;
  chunkCount: number;
  createdAt: Date;
  updatedAt: Date;
}): MemoryJson {
  return {
    id: row.id,
    namespace_id: row.namespaceId,
    content: row.content,
    metadata: row.metadata as Record<string, unknown>,
    scopes: row.scopes as Record<string, string>,
    identity_id: row.identityId,
    chunk_count: row.chunkCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
