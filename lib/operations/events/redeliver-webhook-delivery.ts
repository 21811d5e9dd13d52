import { redeliver } from "@/lib/events/webhooks/redeliver";
import { DeliveryIdParams, RedeliveredSchema } from "@/lib/events/webhooks/schemas";
import { operation } from "../operation";

export const redeliverWebhookDeliveryOperation = operation({
  http: {
    method: "POST",
    path: "/webhooks/{id}/deliveries/{deliveryId}/redeliver",
    tag: "Webhooks",
    summary: "Send a delivery again, now, with the same webhook-id",
    errors: [404],
  },
  permission: "WEBHOOK_MANAGE",
  params: DeliveryIdParams,
  response: RedeliveredSchema,
  successStatus: 202,
  run: ({ principal, params }) => redeliver(principal, params.id, params.deliveryId),
});
