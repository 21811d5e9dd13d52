// The validity fields of a memory (lib/memory/validity): what remember and PATCH take, and what every memory shape
// shows. Event time (valid_at, invalid_at) is distinct from record time (created_at, the history of versions).
import { z } from "zod";
import { identifier } from "@/lib/validation/strings";
import { Instant as ValidInstant } from "./instant";

export const FactKey = identifier({ min: 1, max: 128, lengthMessage: "must be 1 to 128 characters" }).describe(
  "your name for the slot this memory fills (home_city): a newer memory of the same namespace, identity, scopes " +
    "and fact_key replaces the one that holds",
);

const SUPERSEDES_MESSAGE = "send 1 to 100 memory ids";

/** What remember takes, beside a memory's other fields. */
export const ValidityInput = {
  valid_at: ValidInstant.optional().describe("since when what it states holds; default: its occurred_at"),
  fact_key: FactKey.optional(),
  supersedes: z
    .array(identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" }))
    .min(1, SUPERSEDES_MESSAGE)
    .max(100, SUPERSEDES_MESSAGE)
    .optional()
    .describe(
      "ids of memories this one replaces (same namespace, readable by the key): they stop holding at its valid_at",
    ),
};

/** What PATCH /memories/{id} may change of validity. */
export const ValidityPatch = {
  valid_at: ValidInstant.optional().describe("since when what it states holds"),
  invalid_at: ValidInstant.nullable()
    .optional()
    .describe("when it stopped holding; null makes it hold again (undoes a supersession, an inferred one too)"),
  fact_key: FactKey.nullable().optional().describe("null clears it"),
};

const Timestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");

export const SupersessionSchema = z
  .object({
    kind: z
      .enum(["fact_key", "named", "inferred", "model", "caller"])
      .describe(
        "fact_key: a newer memory of its slot; named: a memory's supersedes; inferred: found offline to restate " +
          "the same slot (recall demotes it, not hides it); model: a chat model's decision; caller: PATCH",
      ),
    similarity: z.number().optional().describe("inferred: how alike the two statements are, 0 to 1"),
    basis: z.string().optional().describe("inferred: what the inference weighed"),
  })
  .nullable();

export type SupersessionJson = z.infer<typeof SupersessionSchema>;

/** In every memory shape. */
export const ValidityOutput = {
  valid_at: Timestamp.describe("since when what it states holds (event time)"),
  invalid_at: Timestamp.nullable().describe("when it stopped holding; null while it holds"),
  superseded_by: z.string().nullable().describe("the memory that replaced it"),
  supersedes: z.array(z.string()).describe("the memories it replaced"),
  supersession: SupersessionSchema.describe("how it came to be closed; null while it holds"),
  fact_key: z.string().nullable(),
};

export interface ValidityRow {
  validAt: Date;
  invalidAt: Date | null;
  supersededBy: string | null;
  supersession: unknown;
  factKey: string | null;
  /** Read with the memory (withSupersedes); empty when not. */
  supersedes?: string[];
}

export function validityJson(row: ValidityRow) {
  return {
    valid_at: row.validAt.toISOString(),
    invalid_at: row.invalidAt?.toISOString() ?? null,
    superseded_by: row.supersededBy,
    supersedes: row.supersedes ?? [],
    supersession: (row.supersession ?? null) as SupersessionJson,
    fact_key: row.factKey,
  };
}

/** Recall's and ask's view of time. */
export const ValidityView = {
  as_of: ValidInstant.optional().describe(
    "what held at this time: memories that did not hold then are left out (default: what holds now)",
  ),
};

/** Recall's: every memory, whatever its validity. */
export const IncludeSuperseded = z
  .boolean({ error: "must be true or false" })
  .optional()
  .describe("every memory, whatever its validity, each with its validity fields (default: what holds)");

/** In each of recall's matches. */
export const MatchValidity = {
  valid_at: Timestamp.describe("since when what it states holds"),
  invalid_at: Timestamp.nullable().describe("when it stopped holding; null while it holds"),
  superseded_by: z.string().nullable().describe("the memory that replaced it"),
};

/** slotFieldsWithContent's rule in the OpenAPI document. */
export const SLOT_FIELDS_RULE = {
  anyOf: [{ required: ["content"] }, { not: { anyOf: [{ required: ["fact_key"] }, { required: ["supersedes"] }] } }],
};

/** fact_key and supersedes name one memory's slot: with `content`, or on each of a batch's items. */
export function slotFieldsWithContent(
  body: { content?: unknown; fact_key?: unknown; supersedes?: unknown },
  ctx: z.RefinementCtx,
) {
  for (const field of ["fact_key", "supersedes"] as const) {
    if (body[field] !== undefined && body.content === undefined) {
      const message = `${field} names one memory's slot: send it with content, or on each of memories' items`;
      ctx.addIssue({ code: "custom", message, path: [field] });
    }
  }
}
