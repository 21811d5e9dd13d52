import { Page, PaginationQuery } from "@/lib/http/pagination";
import { listWebhooks } from "@/lib/events/webhooks/list-webhooks";
import { WebhookEndpointSchema } from "@/lib/events/webhooks/schemas";
import { webhookEndpointJson } from "@/lib/events/webhooks/webhook-json";
import { operation } from "../operation";

export const listWebhooksOperation = operation({
  http: {
    method: "GET",
    path: "/webhooks",
    tag: "Webhooks",
    summary: "The organization's webhook endpoints (a key sees those it made)",
  },
  permission: "WEBHOOK_MANAGE",
  query: PaginationQuery,
  response: WebhookEndpointSchema,
  paginated: true,
  async run({ principal, query }) {
    const { items, total } = await listWebhooks(principal, query);
    return new Page(items.map(webhookEndpointJson), total, query);
  },
});
