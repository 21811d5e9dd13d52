import { createWebhook } from "@/lib/events/webhooks/create-webhook";
import { CreatedWebhookEndpointSchema, CreateWebhookBody } from "@/lib/events/webhooks/schemas";
import { webhookEndpointJson } from "@/lib/events/webhooks/webhook-json";
import { operation } from "../operation";

export const createWebhookOperation = operation({
  http: {
    method: "POST",
    path: "/webhooks",
    tag: "Webhooks",
    summary: "Add an endpoint that receives events, signed the Standard Webhooks way; its secret is returned this once",
    errors: [404],
  },
  permission: "WEBHOOK_MANAGE",
  body: CreateWebhookBody,
  response: CreatedWebhookEndpointSchema,
  successStatus: 201,
  async run({ principal, body }) {
    const { endpoint, secret } = await createWebhook(principal, body);
    return { endpoint: webhookEndpointJson(endpoint), secret };
  },
});
