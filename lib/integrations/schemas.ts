import { z } from "zod";
import { PaginationQuery } from "@/lib/http/pagination";
import { WHITE_SPACE, identifier, text } from "@/lib/validation/strings";
import { PROVIDER_IDS, type ProviderId } from "./provider";
import { PROVIDER_LIST } from "./providers";
import { named } from "@/lib/validation/named";

const Timestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");

export const ProviderIdSchema = z.enum(PROVIDER_IDS, { error: `must be one of ${PROVIDER_IDS.join(", ")}` });

/**
 * Where the provider sends the person back with the code: an absolute https URL (http only on this
 * machine's loopback, for local development), without a fragment. The provider checks it against its
 * registered callbacks; it is bound to the state and sent again with the code.
 */
const REDIRECT_URI_PATTERN = new RegExp(
  `^(https://[^${WHITE_SPACE}#/?]+|http://(localhost|127\\.0\\.0\\.1|\\[::1\\])(:[0-9]+)?)(/[^${WHITE_SPACE}#]*)?$`,
  "u",
);
export const RedirectUri = text({ min: 1, max: 2000 })
  .regex(REDIRECT_URI_PATTERN, {
    error: "must be an absolute https URL without a fragment (http only for localhost)",
  })
  .refine((value) => {
    try {
      const url = new URL(value);
      const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
      return (url.protocol === "https:" || (url.protocol === "http:" && loopback)) && !url.hash && !url.username;
    } catch {
      return false;
    }
  }, "must be an absolute https URL without a fragment or credentials (http only for localhost)")
  .describe("default: this gateway's GET /api/v1/integrations/callback, which completes and opens the console");

const CONNECTION_TARGET = {
  namespace_id: identifier({ min: 1 }).optional(),
  external_reference_id: identifier({ min: 1, max: 255 }).optional(),
  redirect_uri: RedirectUri.optional(),
};

/**
 * One body shape per provider (`provider` decides which `options` fit), with exactly one of namespace_id
 * and external_reference_id.
 */
export const CreateConnectionBody = z
  .discriminatedUnion(
    "provider",
    PROVIDER_LIST.map((provider) =>
      z.strictObject({
        provider: z.literal(provider.id),
        ...CONNECTION_TARGET,
        options: provider.module.options.optional().describe(provider.optionsDescription),
      }),
    ) as unknown as [ConnectionBodyOf<ProviderId>, ...ConnectionBodyOf<ProviderId>[]],
    { error: `provider must be one of ${PROVIDER_IDS.join(", ")}` },
  )
  .refine(
    (body) => (body.namespace_id === undefined) !== (body.external_reference_id === undefined),
    "send exactly one of namespace_id and external_reference_id",
  )
  .meta({ allOf: [{ oneOf: [{ required: ["namespace_id"] }, { required: ["external_reference_id"] }] }] });

type ConnectionBodyOf<Provider extends ProviderId> = z.ZodObject<
  {
    provider: z.ZodLiteral<Provider>;
    namespace_id: z.ZodOptional<z.ZodString>;
    external_reference_id: z.ZodOptional<z.ZodString>;
    redirect_uri: z.ZodOptional<typeof RedirectUri>;
    options: z.ZodOptional<z.ZodType<Record<string, unknown>>>;
  },
  z.core.$strict
>;
export type CreateConnectionBody = z.infer<typeof CreateConnectionBody>;

export const ReconnectConnectionBody = z.strictObject({ redirect_uri: RedirectUri.optional() });
export type ReconnectConnectionBody = z.infer<typeof ReconnectConnectionBody>;

export const CompleteConnectionBody = z.strictObject({
  code: text({ min: 1, max: 2000 }),
  state: text({ min: 1, max: 200 }),
});
export type CompleteConnectionBody = z.infer<typeof CompleteConnectionBody>;

export const ConnectionIdParams = z.strictObject({ id: identifier({ min: 1 }) });

export const ListConnectionsQuery = PaginationQuery.extend({
  namespace_id: identifier({ min: 1 }).optional(),
});
export type ListConnectionsQuery = z.infer<typeof ListConnectionsQuery>;

export const DeleteConnectionQuery = z.strictObject({
  keep_memories: z
    .enum(["true", "false"], { error: "must be true or false" })
    .default("false")
    .transform((value) => value === "true"),
});

export const CONNECTION_STATUSES = ["pending", "active", "syncing", "error", "revoked"] as const;

export const ConnectionSchema = z.object({
  id: z.string(),
  provider: ProviderIdSchema,
  namespace_id: z.string(),
  status: z.enum(CONNECTION_STATUSES),
  options: z.record(z.string(), z.unknown()),
  account: z.string().nullable().describe("the account connected: Slack team, Notion workspace"),
  last_sync_at: Timestamp.nullable(),
  documents_synced: z.number().int().describe("documents of the provider stored as memories now"),
  last_error: z.string().nullable().describe("what went wrong last, for a person to act on"),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ConnectionJson = z.infer<typeof ConnectionSchema>;

export const CreatedConnectionSchema = z.object({
  connection: ConnectionSchema,
  authorization_url: z.url().describe("send the person here: the provider's consent page"),
});

export const DeletedConnectionSchema = z.object({
  deleted: z.literal(true),
  memories_deleted: z.number().int(),
  memories_kept: z.number().int(),
  token_revoked: z.boolean().describe("whether the provider confirmed the revocation"),
});

export const ProviderSchema = z.object({
  id: ProviderIdSchema,
  name: z.string(),
  syncs: z.string(),
  scopes: z.array(z.string()),
  configured: z.boolean().describe("whether connections can start: an OAuth client is set"),
  configured_by: z.enum(["organization", "deployment"]).nullable(),
});

// The OpenAPI document's names for these schemas: its components, referenced wherever they are used.
named(ProviderIdSchema, "ProviderId");
named(CreateConnectionBody, "CreateConnectionBody");
named(ReconnectConnectionBody, "ReconnectConnectionBody");
named(CompleteConnectionBody, "CompleteConnectionBody");
named(ConnectionSchema, "Connection");
named(CreatedConnectionSchema, "CreatedConnection");
named(DeletedConnectionSchema, "DeletedConnection");
named(ProviderSchema, "Provider");
