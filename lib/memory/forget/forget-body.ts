// The body of POST /forget (and of the MCP forget tool): which memories to delete, by id or by selector,
// in one namespace or, for an identity, in every namespace the key may write.
import { z } from "zod";
import { named } from "@/lib/validation/named";
import { identifier } from "@/lib/validation/strings";
import { IdentityId, LIMITS, Metadata, ScopesInput } from "../common/schemas";
import { exactlyOneTarget, TARGET_RULE, TargetFields } from "@/lib/validation/target";

/** What `all_namespaces: true` replaces or cannot be combined with: it names no namespace and no memory. */
const ALL_NAMESPACES_EXCLUDES = ["namespace_id", "external_reference_id", "memory_ids", "all"] as const;

/**
 * A forget across every namespace the key may write is an identity's erasure: it needs identity_id, may be
 * narrowed by scopes and metadata, and names no namespace (the key's grants say which) nor memory ids.
 */
function allNamespacesRule(
  body: { identity_id?: string; scopes?: object; metadata?: object } & Partial<
    Record<(typeof ALL_NAMESPACES_EXCLUDES)[number], unknown>
  >,
  ctx: z.RefinementCtx,
) {
  for (const field of ALL_NAMESPACES_EXCLUDES) {
    if (body[field] === undefined) continue;
    ctx.addIssue({
      code: "custom",
      message: `all_namespaces: true forgets in every namespace the key may write; it cannot be combined with ${field}`,
      path: [field],
    });
  }
  if (body.identity_id === undefined) {
    ctx.addIssue({
      code: "custom",
      message: "all_namespaces: true needs identity_id (whose memories to forget everywhere)",
      path: ["identity_id"],
    });
  }
  if (body.scopes && Object.keys(body.scopes).length === 0)
    ctx.addIssue({ code: "custom", message: "must name at least one scope", path: ["scopes"] });
  if (body.metadata && Object.keys(body.metadata).length === 0)
    ctx.addIssue({ code: "custom", message: "must name at least one key", path: ["metadata"] });
}

export const ForgetBody = z
  .strictObject({
    ...TargetFields,
    memory_ids: z
      .array(identifier({ min: 1 }))
      .min(1, "list at least one id")
      .max(LIMITS.forgetIds, `at most ${LIMITS.forgetIds} ids`)
      .optional(),
    identity_id: IdentityId.optional(),
    scopes: ScopesInput.meta({ maxProperties: LIMITS.scopePairs, minProperties: 1 }).optional(),
    metadata: Metadata.meta({ maxProperties: LIMITS.metadataKeys, minProperties: 1 }).optional(),
    all: z.literal(true, { error: "must be true (omit it otherwise)" }).optional(),
    all_namespaces: z
      .literal(true, { error: "must be true (omit it otherwise)" })
      .optional()
      .describe(
        "instead of namespace_id or external_reference_id: forget identity_id's memories in every namespace " +
          "the key may write (narrowed by scopes and metadata when given)",
      ),
  })
  .superRefine((body, ctx) => {
    if (body.all_namespaces) {
      allNamespacesRule(body, ctx);
      return;
    }
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
      // Exactly one of the two targets, or all_namespaces instead of a target.
      { oneOf: [...TARGET_RULE.oneOf, { required: ["all_namespaces"] }] },
      {
        oneOf: [
          {
            required: ["all_namespaces", "identity_id"],
            not: { anyOf: [{ required: ["memory_ids"] }, { required: ["all"] }] },
          },
          {
            not: { required: ["all_namespaces"] },
            oneOf: [
              { required: ["all"] },
              {
                anyOf: ["memory_ids", "identity_id", "scopes", "metadata"].map((selector) => ({
                  required: [selector],
                })),
              },
            ],
          },
        ],
      },
    ],
  });
export type ForgetBody = z.infer<typeof ForgetBody>;

// The OpenAPI document's names for these schemas: its components, referenced wherever they are used.
named(ForgetBody, "ForgetBody");
