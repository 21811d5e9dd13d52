import { z } from "zod";
import { named } from "@/lib/validation/named";
import { mcpEndpointUrl } from "@/lib/namespaces/mcp-endpoint";
import { identifier, name, text } from "@/lib/validation/strings";

const Timestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");

/** Unique in its organization once normalized: names that look the same are the same name. */
export const NamespaceName = name({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" });
export const Description = text({ max: 10_000 });
export const ExternalReferenceId = identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" });
const Infer = z
  .boolean({ error: "must be true or false" })
  .describe(
    "every write has the chat model extract its facts (as `infer: true` on each), unless it says `infer: false`; " +
      "only on a server with a chat model (OPENAI_BASE_URL, OPENAI_API_KEY)",
  );

export const CreateNamespaceBody = z.strictObject({
  name: NamespaceName,
  description: Description.optional(),
  external_reference_id: ExternalReferenceId.optional(),
  infer: Infer.optional(),
});
export type CreateNamespaceBody = z.infer<typeof CreateNamespaceBody>;

export const UpdateNamespaceBody = z
  .strictObject({
    name: NamespaceName.optional(),
    description: Description.nullable().optional().describe("null clears it"),
    external_reference_id: ExternalReferenceId.nullable().optional().describe("null clears it"),
    infer: Infer.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), "send at least one field to change")
  .meta({ minProperties: 1 });
export type UpdateNamespaceBody = z.infer<typeof UpdateNamespaceBody>;

export const NamespaceIdParams = z.strictObject({ id: identifier({ min: 1 }) });
export const GrantIdParams = z.strictObject({ id: identifier({ min: 1 }), grantId: identifier({ min: 1 }) });

export const NamespaceSchema = z.object({
  id: z.string(),
  org_id: z.string(),
  name: z.string(),
  mcp_endpoint_url: z.url(),
  created_at: Timestamp,
  updated_at: Timestamp,
  description: z.string().nullable(),
  external_reference_id: z.string().nullable(),
  infer: Infer,
});
export type NamespaceJson = z.infer<typeof NamespaceSchema>;

export const CreateGrantBody = z
  .strictObject({
    api_key_id: identifier({ min: 1 }).optional(),
    user_id: identifier({ min: 1 }).optional(),
  })
  .refine(
    (body) => (body.api_key_id === undefined) !== (body.user_id === undefined),
    "send exactly one of api_key_id and user_id",
  )
  .meta({ oneOf: [{ required: ["api_key_id"] }, { required: ["user_id"] }] });
export type CreateGrantBody = z.infer<typeof CreateGrantBody>;

export const GrantSchema = z.object({
  id: z.string(),
  namespace_id: z.string(),
  api_key_id: z.string().nullable(),
  user_id: z.string().nullable(),
  created_at: Timestamp,
});

export const DeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

export function namespaceJson(row: {
  id: string;
  orgId: string;
  name: string;
  description: string | null;
  externalReferenceId: string | null;
  infer: boolean;
  createdAt: Date;
  updatedAt: Date;
}): NamespaceJson {
  return {
    id: row.id,
    org_id: row.orgId,
    name: row.name,
    mcp_endpoint_url: mcpEndpointUrl(row.id),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    description: row.description,
    external_reference_id: row.externalReferenceId,
    infer: row.infer,
  };
}

export function grantJson(row: {
  id: string;
  namespaceId: string;
  apiKeyId: string | null;
  userId: string | null;
  createdAt: Date;
}) {
  return {
    id: row.id,
    namespace_id: row.namespaceId,
    api_key_id: row.apiKeyId,
    user_id: row.userId,
    created_at: row.createdAt.toISOString(),
  };
}

// The OpenAPI document's names for these schemas: its components, referenced wherever they are used.
named(NamespaceSchema, "Namespace");
named(CreateNamespaceBody, "CreateNamespaceBody");
named(UpdateNamespaceBody, "UpdateNamespaceBody");
named(GrantSchema, "Grant");
named(CreateGrantBody, "CreateGrantBody");
named(DeletedSchema, "Deleted");
