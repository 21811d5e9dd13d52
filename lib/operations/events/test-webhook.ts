import { TestResultSchema, WebhookIdParams } from "@/lib/events/webhooks/schemas";
import { testWebhook } from "@/lib/events/webhooks/test-webhook";
import { operation } from "../operation";

export const testWebhookOperation = operation({
  http: {
    method: "POST",
    path: "/webhooks/{id}/test",
    tag: "Webhooks",
    summary: "Send a signed webhook.test message now and say how the endpoint answered",
    errors: [404],
  },
  permission: "WEBHOOK_MANAGE",
  params: WebhookIdParams,
  response: TestResultSchema,
  run: ({ principal, params }) => testWebhook(principal, params.id),
});
