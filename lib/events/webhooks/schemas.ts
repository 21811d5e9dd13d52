import { z } from "zod";
import { PaginationQuery } from "@/lib/http/pagination";
import { unknownFields } from "@/lib/validation/unknown-fields";
import { named } from "@/lib/validation/named";
import { HTTP_URL_PATTERN, identifier, text } from "@/lib/validation/strings";
import { EVENT_TYPES, EventType } from "@/lib/event-recording/event-types";
import { EventSchema } from "../schemas";

const Timestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");
const Id = identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" });

/** At most this many namespaces in one endpoint's filter. */
export const MAX_WEBHOOK_NAMESPACES = 100;

export const WebhookEndpointSchema = named(
  z.object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    event_types: z.array(z.enum(EVENT_TYPES)).describe("empty: every type"),
    namespace_ids: z.array(z.string()).describe("empty: every namespace the endpoint's creator may read"),
    include_content: z.boolean().describe("a memory's events carry its content"),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().describe("why it was disabled (by a person, or after failing for days)"),
    disabled_at: Timestamp.nullable(),
    circuit_state: z
      .enum(["closed", "open", "half_open"])
      .describe(
        "closed: deliveries go out; open: its recent attempts got no answer (timed out, no connection), so its " +
          "deliveries wait without a request until circuit_open_until; half_open: the wait is over and the next " +
          "delivery is sent alone, as a trial that closes the circuit once answered",
      ),
    circuit_open_until: Timestamp.nullable().describe("while the circuit is open: when its trial request goes"),
    consecutive_failures: z
      .number()
      .int()
      .describe("attempts in a row that got no answer (timed out, or no connection); any HTTP answer resets it"),
    secret_hint: z.string().describe("the start of the signing secret, to tell secrets apart"),
    previous_secret_expires_at: Timestamp.nullable().describe("after a rotation: until then both secrets sign"),
    created_by_api_key_id: z
      .string()
      .nullable()
      .describe("made with this key: receives only what the key may read (its namespaces, its scopes)"),
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  "WebhookEndpoint",
);
export type WebhookEndpointJson = z.infer<typeof WebhookEndpointSchema>;

export const CreatedWebhookEndpointSchema = named(
  z.object({
    endpoint: WebhookEndpointSchema,
    secret: z.string().describe("the signing secret (`whsec_…`), shown this once: verify deliveries with it"),
  }),
  "CreatedWebhookEndpoint",
);

const Url = text({ min: 1, max: 2048 })
  .regex(HTTP_URL_PATTERN, "must be an https URL, like https://example.com/hooks/memory")
  .describe("https only; private, loopback and link-local addresses are refused");
const EventTypes = z
  .array(EventType, { error: "must be a list of event types" })
  .max(EVENT_TYPES.length, "names too many types")
  .transform((types) => [...new Set(types)])
  .describe("the types to receive; empty or absent: every type");
const NamespaceIds = z
  .array(Id, { error: "must be a list of namespace ids" })
  .max(MAX_WEBHOOK_NAMESPACES, `at most ${MAX_WEBHOOK_NAMESPACES} namespaces`)
  .transform((ids) => [...new Set(ids)])
  .describe("only these namespaces' events; empty or absent: every namespace (and the organization's own events)");
const Description = text({ max: 500 }).describe("what the endpoint is for, for people");

export const CreateWebhookBody = z.strictObject(
  {
    url: Url,
    description: Description.optional(),
    event_types: EventTypes.optional(),
    namespace_ids: NamespaceIds.optional(),
    include_content: z.boolean({ error: "must be true or false" }).optional(),
    enabled: z.boolean({ error: "must be true or false" }).optional(),
  },
  { error: unknownFields() },
);
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const UpdateWebhookBody = CreateWebhookBody.partial()
  .refine((body) => Object.values(body).some((value) => value !== undefined), "send at least one field to change")
  .meta({ minProperties: 1 })
  .describe("enabling a disabled endpoint resumes its deliveries where they stopped");
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const WebhookIdParams = z.strictObject({ id: Id });
export const DeliveryIdParams = z.strictObject({ id: Id, deliveryId: Id });

export const RotateSecretBody = z
  .strictObject(
    {
      overlap_hours: z
        .number({ error: "must be a whole number of hours from 0 to 168" })
        .int("must be a whole number of hours from 0 to 168")
        .min(0, "must be a whole number of hours from 0 to 168")
        .max(168, "must be a whole number of hours from 0 to 168")
        .optional()
        .describe("how long the old secret signs too (default 24): receivers switch without missing a delivery"),
    },
    { error: unknownFields() },
  )
  .default({});

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

export const ListDeliveriesQuery = PaginationQuery.extend({
  status: z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(", ")}` }).optional(),
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;

export const DeliverySchema = named(
  z.object({
    id: z.string(),
    endpoint_id: z.string(),
    event_id: z.string().describe("the message's `webhook-id`"),
    event_type: z.enum(EVENT_TYPES),
    status: z.enum(DELIVERY_STATUSES).describe("pending (not yet, or being retried), delivered, or failed for good"),
    attempts: z.number().int(),
    response_status: z.number().int().nullable().describe("the HTTP status of the last attempt's answer"),
    latency_ms: z.number().int().nullable().describe("how long the last attempt took"),
    last_error: z.string().nullable(),
    next_attempt_at: Timestamp.nullable().describe("for a pending delivery: when it is tried next"),
    delivered_at: Timestamp.nullable(),
    created_at: Timestamp,
    payload: z
      .object({ type: z.enum(EVENT_TYPES), timestamp: Timestamp, data: EventSchema })
      .describe("the message's body as it is sent (its content as of now)"),
  }),
  "WebhookDelivery",
);
export type DeliveryJson = z.infer<typeof DeliverySchema>;

export const TestResultSchema = named(
  z.object({
    delivered: z.boolean().describe("the endpoint answered 2xx"),
    response_status: z.number().int().nullable(),
    latency_ms: z.number().int(),
    error: z.string().nullable(),
  }),
  "WebhookTestResult",
);

export const DeletedWebhookSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export const RedeliveredSchema = z.object({
  id: z.string().describe("the delivery, pending again and due now"),
  queued: z.literal(true),
});
