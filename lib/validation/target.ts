// How a memory operation names its namespace: by its id, or by its external reference (docs/api.md), exactly one.
// Shared by the schemas of memories, documents, entities and events.
import type { z } from "zod";
import { identifier } from "./strings";

export const TargetId = identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" });
/** The two ways a memory operation names its namespace: exactly one of them (exactlyOneTarget). */
export const TargetFields = {
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
