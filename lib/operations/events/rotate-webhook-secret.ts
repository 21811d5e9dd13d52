import { rotateWebhookSecret } from "@/lib/events/webhooks/rotate-webhook-secret";
import { CreatedWebhookEndpointSchema, RotateSecretBody, WebhookIdParams } from "@/lib/events/webhooks/schemas";
import { webhookEndpointJson } from "@/lib/events/webhooks/webhook-json";
import { operation } from "../operation";

export const rotateWebhookSecretOperation = operation({
  http: {
    method: "POST",
    path: "/webhooks/{id}/rotate-secret",
    tag: "Webhooks",
    summary:
      "A new signing secret, returned this once; the old one keeps signing beside it for overlap_hours (24 by default)",
    errors: [404],
  },
  permission: "WEBHOOK_MANAGE",
  params: WebhookIdParams,
  body: RotateSecretBody,
  response: CreatedWebhookEndpointSchema,
  async run({ principal, params, body }) {
    const { endpoint, secret } = await rotateWebhookSecret(principal, params.id, body.overlap_hours);
    return { endpoint: webhookEndpointJson(endpoint), secret };
  },
});
