import { Page } from "@/lib/http/pagination";
import { listDeliveries } from "@/lib/events/webhooks/list-deliveries";
import { DeliverySchema, ListDeliveriesQuery, WebhookIdParams } from "@/lib/events/webhooks/schemas";
import { operation } from "../operation";

export const listWebhookDeliveriesOperation = operation({
  http: {
    method: "GET",
    path: "/webhooks/{id}/deliveries",
    tag: "Webhooks",
    summary: "An endpoint's delivery log, newest first: status, answer, latency, attempts and payload",
    errors: [404],
  },
  permission: "WEBHOOK_MANAGE",
  params: WebhookIdParams,
  query: ListDeliveriesQuery,
  response: DeliverySchema,
  paginated: true,
  async run({ principal, params, query }) {
    const { items, total } = await listDeliveries(principal, params.id, query);
    return new Page(items, total, query);
  },
});
