import { WebhookEndpointSchema, WebhookIdParams } from "@/lib/events/webhooks/schemas";
import { findEndpoint } from "@/lib/events/webhooks/webhook-access";
import { webhookEndpointJson } from "@/lib/events/webhooks/webhook-json";
import { operation } from "../operation";

export const getWebhookOperation = operation({
  http: {
    method: "GET",
    path: "/webhooks/{id}",
    tag: "Webhooks",
    summary: "One endpoint: its filters, whether it is enabled and why not",
    errors: [404],
  },
  permission: "WEBHOOK_MANAGE",
  params: WebhookIdParams,
  response: WebhookEndpointSchema,
  run: async ({ principal, params }) => webhookEndpointJson(await findEndpoint(principal, params.id)),
});
