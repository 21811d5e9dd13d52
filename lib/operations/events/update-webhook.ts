import { UpdateWebhookBody, WebhookEndpointSchema, WebhookIdParams } from "@/lib/events/webhooks/schemas";
import { updateWebhook } from "@/lib/events/webhooks/update-webhook";
import { webhookEndpointJson } from "@/lib/events/webhooks/webhook-json";
import { operation } from "../operation";

export const updateWebhookOperation = operation({
  http: {
    method: "PATCH",
    path: "/webhooks/{id}",
    tag: "Webhooks",
    summary: "Change an endpoint; enabling a disabled one resumes its deliveries where they stopped",
    errors: [404],
  },
  permission: "WEBHOOK_MANAGE",
  params: WebhookIdParams,
  body: UpdateWebhookBody,
  response: WebhookEndpointSchema,
  run: async ({ principal, params, body }) => webhookEndpointJson(await updateWebhook(principal, params.id, body)),
});
