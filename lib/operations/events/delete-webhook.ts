import { deleteWebhook } from "@/lib/events/webhooks/delete-webhook";
import { WebhookIdParams, DeletedWebhookSchema } from "@/lib/events/webhooks/schemas";
import { operation } from "../operation";

export const deleteWebhookOperation = operation({
  http: {
    method: "DELETE",
    path: "/webhooks/{id}",
    tag: "Webhooks",
    summary: "Delete an endpoint with its delivery log",
    errors: [404],
  },
  permission: "WEBHOOK_MANAGE",
  params: WebhookIdParams,
  response: DeletedWebhookSchema,
  run: ({ principal, params }) => deleteWebhook(principal, params.id),
});
