import { z } from "zod";
import { Scopes } from "@/lib/auth/scopes";
import { Instant } from "./instant";
import { LIMITS } from "./limits";
import { InferInput, OriginOutput, originJson, Timestamp, type OriginRow } from "./memory-origin";
import {
  IncludeSuperseded,
  MatchValidity,
  ValidityInput,
  ValidityOutput,
  ValidityPatch,
  ValidityView,
  SLOT_FIELDS_RULE,
  slotFieldsWithContent,
  validityJson,
  type ValidityRow,
} from "./validity-fields";
import { named } from "@/lib/validation/named";
import { identifier, record, text } from "@/lib/validation/strings";
import { DocumentCitationSchema } from "./document-citation";
import { EntitiesFilter, EntityRefSchema } from "./entity-ref";
import { unknownFields } from "@/lib/validation/unknown-fields";
import { exactlyOneTarget, TARGET_RULE, TargetFields } from "@/lib/validation/target";

export { LIMITS };

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

export const ScopesInput = Scopes.refine(
  (s) => Object.keys(s).length <= LIMITS.scopePairs,
  `at most ${LIMITS.scopePairs} scope pairs`,
).meta({ maxProperties: LIMITS.scopePairs });

const FUTURE_MESSAGE = "must be in the future (a memory that has already expired would never be seen)";
export { Instant };
export const ExpiresAt = Instant.refine((value) => Date.parse(value) > Date.now(), FUTURE_MESSAGE).describe(
  "when the memory expires: it is never returned after this and is deleted within a minute",
);
const TTL_MESSAGE = `must be a whole number of seconds from 1 to ${LIMITS.ttlSeconds} (ten years)`;
export const TtlSeconds = z
  .number({ error: TTL_MESSAGE })
  .int(TTL_MESSAGE)
  .min(1, TTL_MESSAGE)
  .max(LIMITS.ttlSeconds, TTL_MESSAGE)
  .describe("expires this many seconds from now (instead of expires_at)");

const OccurredAt = Instant.describe("when it happened (event time); default: the time of the request");

const MemoryFields = {
  metadata: Metadata.optional(),
  scopes: ScopesInput.optional(),
  identity_id: IdentityId.optional(),
  occurred_at: OccurredAt.optional(),
  expires_at: ExpiresAt.optional(),
  ttl_seconds: TtlSeconds.optional(),
  ...ValidityInput,
};

/** expires_at and ttl_seconds say the same thing two ways: one of them at most. */
export function oneExpiry(body: { expires_at?: unknown; ttl_seconds?: unknown }, ctx: z.RefinementCtx) {
  if (body.expires_at !== undefined && body.ttl_seconds !== undefined) {
    ctx.addIssue({ code: "custom", message: "send expires_at or ttl_seconds, not both", path: ["ttl_seconds"] });
  }
}
const ONE_EXPIRY_RULE = { not: { required: ["expires_at", "ttl_seconds"] } };

export const MemoryItem = z
  .strictObject({ content: Content, ...MemoryFields }, { error: unknownFields() })
  .superRefine(oneExpiry)
  .meta(ONE_EXPIRY_RULE);
export type MemoryItem = z.infer<typeof MemoryItem>;

export const SessionId = identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" });

export const ConversationMessage = z.strictObject(
  {
    role: identifier({ min: 1, max: 64, lengthMessage: "must be 1 to 64 characters" }).describe(
      'who said it: "user", "assistant", or a speaker\'s name',
    ),
    content: Content,
    occurred_at: OccurredAt.optional(),
    metadata: Metadata.optional(),
  },
  { error: unknownFields() },
);
export type ConversationMessage = z.infer<typeof ConversationMessage>;

export const RememberBody = z
  .strictObject(
    {
      ...TargetFields,
      content: Content.optional(),
      memories: z
        .array(MemoryItem)
        .min(1, "send 1 to 100 memories")
        .max(LIMITS.batchSize, `send at most ${LIMITS.batchSize} memories in one call`)
        .optional()
        .describe("a batch; metadata, scopes and identity_id beside it apply to items that do not set their own"),
      session_id: SessionId.optional().describe(
        "the conversation the messages belong to; a later call with the same session_id appends to it",
      ),
      messages: z
        .array(ConversationMessage)
        .min(1, `send 1 to ${LIMITS.conversationMessages} messages`)
        .max(LIMITS.conversationMessages, `send at most ${LIMITS.conversationMessages} messages in one call`)
        .optional()
        .describe("a conversation's turns in order: each becomes a memory with session_id, position and role"),
      ...MemoryFields,
      allow_duplicate: z
        .boolean({ error: "must be true or false" })
        .optional()
        .describe("store content identical to an existing memory (same namespace, identity and scopes) again"),
      ...InferInput,
    },
    { error: unknownFields() },
  )
  .superRefine((body, ctx) => {
    exactlyOneTarget(body, ctx);
    const forms = [body.content, body.memories, body.messages].filter((form) => form !== undefined);
    if (forms.length !== 1) {
      ctx.addIssue({ code: "custom", message: "send exactly one of content, memories and messages", path: [] });
    }
    if ((body.session_id === undefined) !== (body.messages === undefined)) {
      ctx.addIssue({
        code: "custom",
        message: "session_id and messages go together (a conversation's turns and the session they belong to)",
        path: [body.session_id === undefined ? "session_id" : "messages"],
      });
    }
    oneExpiry(body, ctx);
    slotFieldsWithContent(body, ctx);
  })
  .meta({
    allOf: [
      TARGET_RULE,
      ONE_EXPIRY_RULE,
      {
        oneOf: [{ required: ["content"] }, { required: ["memories"] }, { required: ["messages", "session_id"] }],
      },
      SLOT_FIELDS_RULE,
    ],
  });
export type RememberBody = z.infer<typeof RememberBody>;

const Query = text({ max: LIMITS.queryChars, notBlank: true });

const CONTEXT_MESSAGE = `must be a whole number from 0 to ${LIMITS.contextTurns}`;

/** How many neighbouring turns of its conversation come with each match (recall and ask). */
const ContextTurns = z
  .number({ error: CONTEXT_MESSAGE })
  .int(CONTEXT_MESSAGE)
  .min(0, CONTEXT_MESSAGE)
  .max(LIMITS.contextTurns, CONTEXT_MESSAGE)
  .default(0)
  .describe(
    "with each match of a conversation turn, this many turns before and after it in its session " +
      "(the request's scopes and filters apply to them too)",
  );

/** Filters on a conversation and on event time (recall and ask). */
export const ConversationFilters = {
  session_id: SessionId.optional().describe("only turns of this conversation"),
  occurred_after: Instant.optional().describe("only memories that happened at or after this time"),
  occurred_before: Instant.optional().describe("only memories that happened before this time"),
};

export const RecallBody = z
  .strictObject({
    ...TargetFields,
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
      .optional()
      .describe("leave out matches scoring less (0.5: the likely answers); instead of the relevance floor"),
    scopes: ScopesInput.optional(),
    identity_id: IdentityId.optional(),
    metadata: Metadata.optional().describe("only memories whose metadata has these exact values"),
    ...ConversationFilters,
    entities: EntitiesFilter.optional(),
    context: ContextTurns,
    ...ValidityView,
    include_superseded: IncludeSuperseded,
  })
  .superRefine(exactlyOneTarget)
  .meta(TARGET_RULE);
export type RecallBody = z.infer<typeof RecallBody>;

const ASK_TOP_K_MESSAGE = `must be a whole number from 1 to ${LIMITS.askTopK}`;

export const AskBody = z
  .strictObject({
    ...TargetFields,
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
    ...ConversationFilters,
    entities: EntitiesFilter.optional(),
    context: ContextTurns,
    ...ValidityView,
  })
  .superRefine(exactlyOneTarget)
  .meta(TARGET_RULE);
export type AskBody = z.infer<typeof AskBody>;

export const MemoryIdParams = z.strictObject({ id: identifier({ min: 1 }) });

/** PATCH /memories/{id}: the fields to change, at least one; what is not sent stays as it is. */
export const PatchMemoryBody = z
  .strictObject({
    content: Content.optional().describe("the new text: chunked and embedded again"),
    metadata: Metadata.optional().describe("replaces the metadata whole"),
    scopes: ScopesInput.optional().describe("replaces the scopes whole; a key with scopes keeps its own pairs"),
    identity_id: IdentityId.nullable().optional().describe("null clears it"),
    occurred_at: Instant.optional().describe("when it happened (event time)"),
    expires_at: ExpiresAt.nullable().optional().describe("a new expiry in the future, or null to remove it"),
    ttl_seconds: TtlSeconds.optional(),
    ...ValidityPatch,
  })
  .superRefine((body, ctx) => {
    if (Object.keys(body).length === 0) {
      ctx.addIssue({
        code: "custom",
        message:
          "send at least one field to change: content, metadata, scopes, identity_id, occurred_at, " +
          "expires_at, ttl_seconds, valid_at, invalid_at or fact_key",
        path: [],
      });
    }
    oneExpiry(body, ctx);
  })
  .meta({ minProperties: 1, ...ONE_EXPIRY_RULE });
export type PatchMemoryBody = z.infer<typeof PatchMemoryBody>;

export const MemorySchema = z.object({
  id: z.string(),
  namespace_id: z.string(),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  scopes: z.record(z.string(), z.string()),
  identity_id: z.string().nullable(),
  chunk_count: z.number(),
  session_id: z.string().nullable().describe("the conversation this turn belongs to"),
  position: z.number().int().nullable().describe("the turn's place in its conversation: 0, 1, …"),
  role: z.string().nullable().describe("who said it"),
  occurred_at: Timestamp.describe("when it happened (event time)"),
  expires_at: Timestamp.nullable(),
  version: z.number().int().describe("1, then one more with each change"),
  created_at: Timestamp,
  updated_at: Timestamp,
  ...ValidityOutput,
  ...OriginOutput,
  deduplicated: z
    .boolean()
    .optional()
    .describe("remember only: true when identical content was already stored and that memory is returned"),
});
export type MemoryJson = z.infer<typeof MemorySchema>;

/** A turn next to a match in its conversation (`context: n`). */
export const ContextTurnSchema = z.object({
  memory_id: z.string(),
  position: z.number().int(),
  role: z.string().nullable(),
  content: z
    .string()
    .describe("the turn; of one longer than 2,000 characters, the 2,000 nearest the match (truncated: true)"),
  truncated: z.boolean(),
  occurred_at: Timestamp,
});
export type ContextTurnJson = z.infer<typeof ContextTurnSchema>;

export const MatchSchema = z.object({
  memory_id: z.string(),
  chunk_id: z.string(),
  content: z.string().describe("the matching chunk"),
  score: z
    .number()
    .min(0)
    .max(1)
    .describe("how likely the memory is relevant, 0 to 1, on one scale for every query; never rising down the list"),
  metadata: z.record(z.string(), z.unknown()),
  scopes: z.record(z.string(), z.string()),
  identity_id: z.string().nullable(),
  session_id: z.string().nullable(),
  position: z.number().int().nullable(),
  role: z.string().nullable(),
  occurred_at: Timestamp,
  created_at: Timestamp,
  ...MatchValidity,
  context: z
    .array(ContextTurnSchema)
    .describe("with `context: n`, the turns around a conversation turn, in order; empty for a plain memory"),
  document: DocumentCitationSchema.nullable(),
  match_reasons: z
    .object({
      terms: z
        .array(z.string())
        .describe(
          "the query's words (as sent) the memory has, compared by stem: in its text, or for a conversation " +
            "turn, its speaker (role)",
        ),
      similarity: z
        .number()
        .min(0)
        .max(1)
        .nullable()
        .describe("cosine similarity of the matching chunk and the query, 0 to 1; null when not compared"),
      via: z
        .enum(["words", "meaning", "words and meaning", "conversation context"])
        .describe(
          "what carried the score: the query's words; its meaning (similarity at least 0.3, the relevance " +
            "floor's); both; or, for a conversation turn, the neighbouring turns it borrows evidence from",
        ),
    })
    .describe("why the memory matched, from what the search found"),
  entities: z.array(EntityRefSchema).describe("the entities the memory mentions, the most mentioned first"),
});
export type MatchJson = z.infer<typeof MatchSchema>;

export const SourceSchema = z.object({
  index: z.number().int().min(1).describe("what the answer cites as [index]"),
  memory_id: z.string(),
  chunk_id: z.string(),
  content: z.string(),
  score: z.number().min(0).max(1),
  session_id: z.string().nullable(),
  position: z.number().int().nullable(),
  role: z.string().nullable(),
  occurred_at: Timestamp.describe("when it happened: the answerers are given it"),
  ...MatchValidity,
  context: z.array(ContextTurnSchema).describe("with `context: n`, the turns around it, read by the answerers too"),
  document: DocumentCitationSchema.nullable(),
});
export type SourceJson = z.infer<typeof SourceSchema>;

export const AskResultSchema = z.object({
  answer: z.string().describe("the answer, citing its sources as [1], [2]; says so when nothing in memory answers"),
  sources: z.array(SourceSchema).describe("the memories the answer was made from; empty when none is relevant"),
  model: z.string().describe('the chat model that wrote the answer, or "extractive" for the built-in answerer'),
});
export type AskResultJson = z.infer<typeof AskResultSchema>;

export const ForgetResultSchema = z.object({
  deleted: z.number(),
  memory_ids: z.array(z.string()),
  namespaces: z
    .array(z.object({ namespace_id: z.string(), deleted: z.number() }))
    .describe("per namespace: the one named, or with all_namespaces each one memories were deleted from"),
  erasure_id: z.string().describe("the erasure receipt of this request (GET /erasures)"),
});

export interface MemoryRow extends ValidityRow, OriginRow {
  id: string;
  namespaceId: string;
  content: string;
  metadata: unknown;
  scopes: unknown;
  identityId: string | null;
  chunkCount: number;
  sessionId: string | null;
  sessionPosition: number | null;
  role: string | null;
  occurredAt: Date;
  expiresAt: Date | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  /** Set by remember when identical content was already stored. */
  deduplicated?: boolean;
}

export function memoryJson(row: MemoryRow): MemoryJson {
  return {
    id: row.id,
    namespace_id: row.namespaceId,
    content: row.content,
    metadata: row.metadata as Record<string, unknown>,
    scopes: row.scopes as Record<string, string>,
    identity_id: row.identityId,
    chunk_count: row.chunkCount,
    session_id: row.sessionId,
    position: row.sessionPosition,
    role: row.role,
    occurred_at: row.occurredAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    version: row.version,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...validityJson(row),
    ...originJson(row),
    ...(row.deduplicated !== undefined ? { deduplicated: row.deduplicated } : {}),
  };
}

// The OpenAPI document's names for these schemas: its components, referenced wherever they are used.
named(IdentityId, "IdentityId");
named(SessionId, "SessionId");
named(Metadata, "Metadata");
named(ScopesInput, "Scopes");
named(Instant, "Instant");
named(ConversationMessage, "ConversationMessage");
named(MemoryItem, "MemoryItem");
named(RememberBody, "RememberBody");
named(RecallBody, "RecallBody");
named(AskBody, "AskBody");
named(PatchMemoryBody, "PatchMemoryBody");
named(MemorySchema, "Memory");
named(ContextTurnSchema, "ContextTurn");
named(MatchSchema, "Match");
named(SourceSchema, "Source");
named(AskResultSchema, "AskResult");
named(ForgetResultSchema, "ForgetResult");
