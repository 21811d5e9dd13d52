// Events: the feed, and the webhooks that receive them.
// Part of the operation catalogue (lib/operations/catalogue.ts), which gathers every area's in order.
import { Page, PaginationQuery } from "@/lib/http/pagination";
import { listEvents } from "@/lib/events/list-events";
import { EventFeedQuery, EventFeedSchema } from "@/lib/events/schemas";
import { createWebhook } from "@/lib/events/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/events/webhooks/delete-webhook";
import { listDeliveries } from "@/lib/events/webhooks/list-deliveries";
import { listWebhooks } from "@/lib/events/webhooks/list-webhooks";
import { redeliver } from "@/lib/events/webhooks/redeliver";
import { rotateWebhookSecret } from "@/lib/events/webhooks/rotate-webhook-secret";
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookBody,
  DeliveryIdParams,
  DeliverySchema,
  ListDeliveriesQuery,
  RedeliveredSchema,
  RotateSecretBody,
  TestResultSchema,
  UpdateWebhookBody,
  WebhookEndpointSchema,
  WebhookIdParams,
  DeletedWebhookSchema,
} from "@/lib/events/webhooks/schemas";
import { testWebhook } from "@/lib/events/webhooks/test-webhook";
import { updateWebhook } from "@/lib/events/webhooks/update-webhook";
import { findEndpoint } from "@/lib/events/webhooks/webhook-access";
import { webhookEndpointJson } from "@/lib/events/webhooks/webhook-json";
import { operation } from "../operation";

export const eventsOperations = {
  // Events: every change, in order, for applications to follow (the feed) or to receive (webhooks).
  listEvents: operation({
    permission: "NAMESPACE_READ",
    query: EventFeedQuery,
    response: EventFeedSchema,
    run: ({ principal, query }) => listEvents(principal, query),
  }),
  listWebhooks: operation({
    permission: "WEBHOOK_MANAGE",
    query: PaginationQuery,
    response: WebhookEndpointSchema,
    paginated: true,
    async run({ principal, query }) {
      const { items, total } = await listWebhooks(principal, query);
      return new Page(items.map(webhookEndpointJson), total, query);
    },
  }),
  createWebhook: operation({
    permission: "WEBHOOK_MANAGE",
    body: CreateWebhookBody,
    response: CreatedWebhookEndpointSchema,
    successStatus: 201,
    async run({ principal, body }) {
      const { endpoint, secret } = await createWebhook(principal, body);
      return { endpoint: webhookEndpointJson(endpoint), secret };
    },
  }),
  getWebhook: operation({
    permission: "WEBHOOK_MANAGE",
    params: WebhookIdParams,
    response: WebhookEndpointSchema,
    run: async ({ principal, params }) => webhookEndpointJson(await findEndpoint(principal, params.id)),
  }),
  updateWebhook: operation({
    permission: "WEBHOOK_MANAGE",
    params: WebhookIdParams,
    body: UpdateWebhookBody,
    response: WebhookEndpointSchema,
    run: async ({ principal, params, body }) => webhookEndpointJson(await updateWebhook(principal, params.id, body)),
  }),
  deleteWebhook: operation({
    permission: "WEBHOOK_MANAGE",
    params: WebhookIdParams,
    response: DeletedWebhookSchema,
    run: ({ principal, params }) => deleteWebhook(principal, params.id),
  }),
  rotateWebhookSecret: operation({
    permission: "WEBHOOK_MANAGE",
    params: WebhookIdParams,
    body: RotateSecretBody,
    response: CreatedWebhookEndpointSchema,
    async run({ principal, params, body }) {
      const { endpoint, secret } = await rotateWebhookSecret(principal, params.id, body.overlap_hours);
      return { endpoint: webhookEndpointJson(endpoint), secret };
    },
  }),
  testWebhook: operation({
    permission: "WEBHOOK_MANAGE",
    params: WebhookIdParams,
    response: TestResultSchema,
    run: ({ principal, params }) => testWebhook(principal, params.id),
  }),
  listWebhookDeliveries: operation({
    permission: "WEBHOOK_MANAGE",
    params: WebhookIdParams,
    query: ListDeliveriesQuery,
    response: DeliverySchema,
    paginated: true,
    async run({ principal, params, query }) {
      const { items, total } = await listDeliveries(principal, params.id, query);
      return new Page(items, total, query);
    },
  }),
  redeliverWebhookDelivery: operation({
    permission: "WEBHOOK_MANAGE",
    params: DeliveryIdParams,
    response: RedeliveredSchema,
    successStatus: 202,
    run: ({ principal, params }) => redeliver(principal, params.id, params.deliveryId),
  }),
};
