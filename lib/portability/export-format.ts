import { z } from "zod";
import { Scopes } from "@/lib/auth/scopes";
import { SUPPORTED_CONTENT_TYPES } from "@/lib/documents/extract/content-type";
import { HTTP_URL_PATTERN, identifier, text } from "@/lib/validation/strings";
import { EMBEDDING_DIMENSIONS } from "@/lib/memory/embeddings/provider";
import { ImportedVersionSchema, MemoryVersionSchema } from "@/lib/memory/store/history";
import {
  ConversationMessage,
  IdentityId,
  Instant,
  LIMITS,
  MemoryItem,
  Metadata,
  oneExpiry,
  SessionId,
  TtlSeconds,
} from "@/lib/memory/common/schemas";
import { unknownFields } from "@/lib/validation/unknown-fields";
import { named } from "@/lib/validation/named";
import { FactKey, SupersessionSchema } from "@/lib/memory/common/validity-fields";

// The NDJSON of GET /namespaces/{id}/export and POST /namespaces/{id}/import (docs/api.md "Export and
// import"): a header line, then one line per memory with its earlier versions. Import validates every line
// with these schemas, the same string rules as remember, before it writes anything.

export const EXPORT_FORMAT = "memory-gateway-export";
export const EXPORT_VERSION = 1;

/** What one import may hold: bodies this size are streamed through, never held whole. */
export const IMPORT_LIMITS = {
  bytes: 256 * 1024 * 1024,
  lines: 100_001, // the header and 100,000 memories
  /** A memory with many long versions, or long content with its vectors, or a 50 MB document in base64, fits. */
  lineChars: 72 * 1024 * 1024,
  versions: 1_000,
} as const;

const Content = ConversationMessage.shape.content;
const Role = ConversationMessage.shape.role;
const ScopesInput = MemoryItem.shape.scopes.unwrap();
const Timestamp = Instant;
/** The largest version or position a column of the database holds. */
const MAX_INT = 2_147_483_647;
const Version = z
  .number({ error: "must be a whole number >= 1" })
  .int("must be a whole number >= 1")
  .min(1, "must be a whole number >= 1")
  .max(MAX_INT, `must be at most ${MAX_INT}`);
const POSITION_MESSAGE = `must be a whole number from 0 to ${MAX_INT - 1}`;
const Position = z
  .number({ error: POSITION_MESSAGE })
  .int(POSITION_MESSAGE)
  .min(0, POSITION_MESSAGE)
  .max(MAX_INT - 1, POSITION_MESSAGE);

export const ExportHeaderSchema = z
  .strictObject({
    type: z.literal("header"),
    format: z.literal(EXPORT_FORMAT, { error: `must be "${EXPORT_FORMAT}"` }),
    version: z.literal(EXPORT_VERSION, { error: `must be ${EXPORT_VERSION} (the only version this server reads)` }),
    exported_at: Timestamp,
    namespace: z
      .strictObject({
        id: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        external_reference_id: z.string().nullable(),
      })
      .describe("the namespace exported (import writes into the namespace of its path, whatever this says)"),
    embedding_model: z.string().describe("the embedding model of the exporting server"),
    vectors: z.boolean().describe("whether memory lines carry their chunks' vectors"),
    scopes: Scopes.describe("the scopes the export was limited to (the exporting key's; {} for every memory)"),
  })
  .describe("The first line");
export type ExportHeader = z.infer<typeof ExportHeaderSchema>;

const VECTOR_MESSAGE = `must be ${EMBEDDING_DIMENSIONS} numbers of unit length`;

export const ExportChunkSchema = z.strictObject({
  position: Position,
  // A chunk is a part of its memory's content: never longer than content may be.
  content: text({ max: LIMITS.contentChars }),
  vector: z
    .array(z.number({ error: VECTOR_MESSAGE }), { error: VECTOR_MESSAGE })
    .length(EMBEDDING_DIMENSIONS, VECTOR_MESSAGE)
    // Every provider's vectors are unit length, so that a dot product is their cosine: a longer one would
    // outrank every other memory of the namespace in semantic search.
    .refine((vector) => Math.abs(Math.hypot(...vector) - 1) < 1e-3, VECTOR_MESSAGE),
});

/**
 * Validity in an export line, optional so that lines of earlier exports still import. superseded_by names a
 * memory of the same file by its exported id.
 */
const ExportedValidityInput = {
  valid_at: Timestamp.optional().describe("since when it holds; default: its occurred_at"),
  invalid_at: Timestamp.nullable().optional(),
  superseded_by: z.string().nullable().optional(),
  supersession: SupersessionSchema.optional(),
  fact_key: FactKey.nullable().optional(),
  kind: z.enum(["memory", "fact"], { error: 'must be "memory" or "fact"' }).optional(),
  derived_from: z
    .array(z.string().max(255))
    .max(1_000)
    .optional()
    .describe("a fact's sources, by their ids in the same file (those not in it are dropped)"),
};

export const ExportMemorySchema = z
  .strictObject(
    {
      type: z.literal("memory"),
      id: z.string().describe("the memory's id where it was exported (import mints new ids)"),
      content: Content,
      metadata: Metadata,
      scopes: ScopesInput,
      identity_id: IdentityId.nullable(),
      session_id: SessionId.nullable(),
      position: Position.nullable(),
      role: Role.nullable(),
      occurred_at: Timestamp,
      created_at: Timestamp,
      updated_at: Timestamp,
      expires_at: Timestamp.nullable(),
      ...ExportedValidityInput,
      version: Version,
      history: z
        .array(ImportedVersionSchema)
        .max(IMPORT_LIMITS.versions)
        .describe(
          "every version, newest first: the current one (its author and changed fields) then the earlier ones; " +
            "for a key with scopes, only versions within them",
        ),
      embedding_model: z.string().nullable().describe("the model of the chunks' vectors (null: mixed, re-embedded)"),
      chunks: z
        .array(ExportChunkSchema)
        .optional()
        .describe("with include_vectors: each chunk's text and vector, reused on import by the same model"),
    },
    { error: unknownFields() },
  )
  .superRefine((line, ctx) => {
    if (line.derived_from?.length && line.kind !== "fact") {
      ctx.addIssue({ code: "custom", message: 'derived_from belongs to a fact (kind "fact")', path: ["derived_from"] });
    }
    if ((line.session_id === null) !== (line.position === null)) {
      ctx.addIssue({ code: "custom", message: "session_id and position go together", path: ["position"] });
    }
    if (line.role !== null && line.session_id === null) {
      ctx.addIssue({
        code: "custom",
        message: "role belongs to a conversation turn (give session_id)",
        path: ["role"],
      });
    }
    const versions = line.history.map((entry) => entry.version);
    if (versions.length > 0 && versions[0] !== line.version) {
      ctx.addIssue({ code: "custom", message: "the first version must be the memory's own", path: ["history"] });
    }
    if (versions.some((version, i) => i > 0 && version >= versions[i - 1])) {
      ctx.addIssue({ code: "custom", message: "versions must be listed newest first, each once", path: ["history"] });
    }
  })
  .describe("Every other line: one memory");
export type ExportMemory = z.infer<typeof ExportMemorySchema>;

/**
 * A document (lib/documents) with its original bytes: imported, it is processed again from them (its passages
 * are not memory lines of the export: they are made anew, with the importing server's extraction).
 */
export const ExportDocumentSchema = z
  .strictObject(
    {
      type: z.literal("document"),
      id: z.string().describe("the document's id where it was exported (import mints a new one)"),
      title: text({ max: 500 }).nullable(),
      content_type: z.enum(SUPPORTED_CONTENT_TYPES, { error: `must be one of ${SUPPORTED_CONTENT_TYPES.join(", ")}` }),
      source_url: text({ max: 2048 }).regex(HTTP_URL_PATTERN, "must be an http(s) URL").nullable(),
      filename: identifier({ min: 1, max: 255 }).nullable(),
      metadata: Metadata,
      scopes: ScopesInput,
      identity_id: IdentityId.nullable(),
      created_at: Timestamp,
      original: z.base64({ error: "must be the original bytes in base64" }),
    },
    { error: unknownFields() },
  )
  .describe("A document, before the memories: its original in base64");
export type ExportDocument = z.infer<typeof ExportDocumentSchema>;

/** What an import line from elsewhere may name differently, beyond other tools' names (unknown-fields.ts). */
const FROM_ELSEWHERE_HINTS = {
  id: "every imported memory gets a new id (keep the old one in metadata)",
  hash: "leave it out (the server keeps its own)",
  created_at: "use occurred_at (when it happened)",
  updated_at: "leave it out, or use occurred_at",
  position: 'a line without "type" is appended to its session: leave position out (or send the full export line)',
  version: 'leave it out (or send the full export line, with "type": "memory")',
};

/**
 * A memory line from another tool or a script: `content` and any of these fields, without `type`. It is
 * stored as `remember` would store it now (a key's scopes added, occurred_at defaulting to now); a line
 * with session_id is a conversation turn, appended to that session in the order of the lines.
 */
export const MemoryLineSchema = z
  .strictObject(
    {
      content: Content,
      metadata: Metadata.optional(),
      scopes: ScopesInput.optional(),
      identity_id: IdentityId.nullable().optional(),
      occurred_at: Timestamp.optional().describe("when it happened; default: the time of the import"),
      expires_at: Timestamp.nullable().optional().describe("a line whose expires_at has passed is skipped"),
      ttl_seconds: TtlSeconds.optional(),
      session_id: SessionId.nullable().optional().describe("a conversation turn: appended to this session"),
      role: Role.nullable().optional().describe("who said the turn (with session_id)"),
    },
    { error: unknownFields(FROM_ELSEWHERE_HINTS) },
  )
  .superRefine((line, ctx) => {
    oneExpiry(line, ctx);
    if (line.role != null && line.session_id == null) {
      ctx.addIssue({
        code: "custom",
        message: "role belongs to a conversation turn (give session_id)",
        path: ["role"],
      });
    }
  })
  .describe("A memory from elsewhere: content and optional fields, no type");
export type MemoryLine = z.infer<typeof MemoryLineSchema>;

/**
 * One line of an import's body: an export's (its header first, then its memories), or a memory from
 * elsewhere (MemoryLineSchema), each validated as such by the import.
 */
export const ImportLineSchema = z.union([
  ExportHeaderSchema,
  ExportDocumentSchema,
  ExportMemorySchema,
  MemoryLineSchema,
]);

const OutputTimestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");

/**
 * One line of an export as the export writes it: the same fields as ImportLineSchema, described as
 * output (what is stored is written as it is; the import checks it again).
 */
export const ExportLineSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("header"),
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    exported_at: OutputTimestamp,
    namespace: z.object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      external_reference_id: z.string().nullable(),
    }),
    embedding_model: z.string(),
    vectors: z.boolean(),
    scopes: z.record(z.string(), z.string()),
  }),
  z.object({
    type: z.literal("document"),
    id: z.string(),
    title: z.string().nullable(),
    content_type: z.string(),
    source_url: z.string().nullable(),
    filename: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    scopes: z.record(z.string(), z.string()),
    identity_id: z.string().nullable(),
    created_at: OutputTimestamp,
    original: z.string().describe("the original bytes, base64"),
  }),
  z.object({
    type: z.literal("memory"),
    id: z.string(),
    content: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    scopes: z.record(z.string(), z.string()),
    identity_id: z.string().nullable(),
    session_id: z.string().nullable(),
    position: z.number().nullable(),
    role: z.string().nullable(),
    occurred_at: OutputTimestamp,
    created_at: OutputTimestamp,
    updated_at: OutputTimestamp,
    expires_at: OutputTimestamp.nullable(),
    valid_at: OutputTimestamp,
    invalid_at: OutputTimestamp.nullable(),
    superseded_by: z.string().nullable().describe("the id, where it was exported, of the memory that replaced it"),
    supersession: SupersessionSchema,
    fact_key: z.string().nullable(),
    kind: z.enum(["memory", "fact"]).describe("fact: extracted by a chat model from the memories in derived_from"),
    derived_from: z.array(z.string()).describe("a fact's sources, by their ids where it was exported"),
    version: z.number(),
    history: z.array(MemoryVersionSchema).describe("every version, newest first, the current one included"),
    embedding_model: z.string().nullable(),
    chunks: z
      .array(z.object({ position: z.number(), content: z.string(), vector: z.array(z.number()) }))
      .optional()
      .describe("with include_vectors=true"),
  }),
]);
export type ExportLine = z.infer<typeof ExportLineSchema>;

export const ExportQuery = z.strictObject({
  include_vectors: z
    .enum(["true", "false"], { error: "must be true or false" })
    .optional()
    .transform((value) => value === "true")
    .describe("true: each memory line carries its chunks' text and vectors (reused by an import on the same model)"),
});

export const ImportResultSchema = z.object({
  imported: z.number().describe("memories written"),
  skipped_expired: z.number().describe("memory lines whose expires_at had passed: not imported"),
  memory_ids: z.array(z.string()).describe("the new ids of the memories written, in the order of their lines"),
  document_ids: z
    .array(z.string())
    .describe("the new ids of the documents, queued to be processed again from their originals"),
});

// The OpenAPI document's names for these schemas: its components, referenced wherever they are used.
named(ExportLineSchema, "ExportLine");
named(ImportResultSchema, "ImportResult");
