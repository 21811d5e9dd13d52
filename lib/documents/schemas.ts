import { z } from "zod";
import { PaginationQuery } from "@/lib/http/pagination";
import { IdentityId, Metadata, ScopesInput } from "@/lib/memory/common/schemas";
import { exactlyOneTarget, TARGET_RULE, TargetFields, TargetId } from "@/lib/validation/target";
import { unknownFields } from "@/lib/validation/unknown-fields";
import { named } from "@/lib/validation/named";
import { HTTP_URL_PATTERN, WHITE_SPACE, identifier, text } from "@/lib/validation/strings";
import { UploadedFile } from "@/lib/http/uploaded-file";

export const DOCUMENT_STATUSES = ["queued", "processing", "ready", "failed"] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

const Timestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");

export const DocumentSchema = named(
  z.object({
    id: z.string(),
    namespace_id: z.string(),
    status: z
      .enum(DOCUMENT_STATUSES)
      .describe("queued, then processing; ready once its passages are memories, failed with `error` otherwise"),
    title: z.string().nullable().describe("as given, or the file's own title once read"),
    content_type: z
      .string()
      .nullable()
      .describe("the type it is read as (sniffed from its bytes); null for a URL not fetched yet"),
    source_url: z.string().nullable().describe("the URL it was fetched from"),
    filename: z.string().nullable(),
    size_bytes: z.number().int().nullable().describe("of the original; null for a URL not fetched yet"),
    pages: z.number().int().nullable().describe("a PDF's pages (1 for an image); null for formats without pages"),
    chunk_count: z.number().int().describe("the passages stored as memories, each with its page and section"),
    error: z.string().nullable().describe("why processing failed, in a sentence"),
    identity_id: z.string().nullable(),
    scopes: z.record(z.string(), z.string()),
    metadata: z.record(z.string(), z.unknown()),
    created_at: Timestamp,
    updated_at: Timestamp,
    processed_at: Timestamp.nullable(),
  }),
  "Document",
);
export type DocumentJson = z.infer<typeof DocumentSchema>;

export const DocumentIdParams = z.strictObject({ id: TargetId });

export const ListDocumentsQuery = PaginationQuery.extend({
  namespace_id: TargetId,
  status: z.enum(DOCUMENT_STATUSES, { error: `must be one of ${DOCUMENT_STATUSES.join(", ")}` }).optional(),
});
export type ListDocumentsQuery = z.infer<typeof ListDocumentsQuery>;

const Filename = identifier({ min: 1, max: 255 });
const MediaType = text({ max: 255 });

export const CONTENT_ENCODINGS = ["utf8", "base64"] as const;

/** Base64, white space allowed between its characters (as line-wrapped encoders write it). */
export const BASE64 = new RegExp(`^[A-Za-z0-9+/${WHITE_SPACE}]*(=[${WHITE_SPACE}]*){0,2}$`, "u");

/**
 * The OpenAPI document's statement of the rules on a JSON body's source (a file comes as multipart only):
 * a URL alone, or content with its type.
 */
const SOURCE_RULE = {
  oneOf: [
    {
      required: ["url"],
      not: { anyOf: [{ required: ["content"] }, { required: ["content_type"] }, { required: ["content_encoding"] }] },
    },
    {
      required: ["content", "content_type"],
      not: { required: ["url"] },
      if: { required: ["content_encoding"], properties: { content_encoding: { const: "base64" } } },
      then: { properties: { content: { pattern: BASE64.source } } },
    },
  ],
};

export const CreateDocumentBody = z
  .strictObject(
    {
      ...TargetFields,
      file: z
        .instanceof(UploadedFile, { error: "send the file as a multipart/form-data part named `file`" })
        .refine((file) => file.name === null || Filename.safeParse(file.name).success, {
          error: "the file's name must be 1 to 255 characters, without control or invisible characters",
        })
        .refine((file) => file.type === null || MediaType.safeParse(file.type).success, {
          error: "the file's type must be at most 255 characters, without control characters",
        })
        .optional()
        .describe("multipart/form-data only: the file"),
      url: text({ max: 2048 })
        .regex(HTTP_URL_PATTERN, "must be an https URL, like https://example.com/handbook.pdf")
        .optional()
        .describe("an https URL to fetch (public addresses only; redirects are followed and checked)"),
      content: text({ notBlank: true })
        .optional()
        .describe("the document itself: text, or base64 with `content_encoding: base64` for binary formats"),
      content_type: text({ max: 255, notBlank: true })
        .optional()
        .describe("with `content`: its type, e.g. text/markdown, text/html, application/pdf"),
      content_encoding: z
        .enum(CONTENT_ENCODINGS, { error: "must be utf8 or base64" })
        .optional()
        .describe("with `content`: utf8 (the default) or base64"),
      title: text({ max: 500, notBlank: true }).optional().describe("shown and cited; the file's own title otherwise"),
      filename: Filename.optional(),
      metadata: Metadata.optional().describe("copied onto every passage's memory"),
      scopes: ScopesInput.optional(),
      identity_id: IdentityId.optional(),
    },
    { error: unknownFields() },
  )
  .superRefine((body, ctx) => {
    exactlyOneTarget(body, ctx);
    const sources = [body.file, body.url, body.content].filter((source) => source !== undefined);
    if (sources.length !== 1) {
      ctx.addIssue({ code: "custom", message: "send exactly one of file, url and content", path: [] });
    }
    if (body.content !== undefined && body.content_type === undefined) {
      ctx.addIssue({ code: "custom", message: "say the content's type", path: ["content_type"] });
    }
    if (body.content === undefined && (body.content_type !== undefined || body.content_encoding !== undefined)) {
      ctx.addIssue({ code: "custom", message: "goes with `content` only", path: ["content_type"] });
    }
  })
  .meta({ allOf: [TARGET_RULE, SOURCE_RULE] });
export type CreateDocumentBody = z.infer<typeof CreateDocumentBody>;

export const DocumentBlockSchema = z.object({
  page: z.number().int().nullable(),
  section: z.array(z.string()),
  text: z.string(),
});

export const DocumentTextSchema = named(
  z.object({
    id: z.string(),
    pages: z.number().int().nullable(),
    blocks: z.array(DocumentBlockSchema).describe("the extracted text in reading order, with page and heading path"),
  }),
  "DocumentText",
);

export const DeletedDocumentSchema = z.object({
  id: z.string(),
  deleted: z.literal(true),
  memories_deleted: z.number().int(),
});
