// Events: the feed, and the webhooks that receive them.
// Part of the operation catalogue (lib/operations/catalogue.ts), which gathers every area's in order.
import { listEventsOperation } from "../events/list-events";
import { listWebhooksOperation } from "../events/list-webhooks";
import { createWebhookOperation } from "../events/create-webhook";
import { getWebhookOperation } from "../events/get-webhook";
import { updateWebhookOperation } from "../events/update-webhook";
import { deleteWebhookOperation } from "../events/delete-webhook";
import { rotateWebhookSecretOperation } from "../events/rotate-webhook-secret";
import { testWebhookOperation } from "../events/test-webhook";
import { listWebhookDeliveriesOperation } from "../events/list-webhook-deliveries";
import { redeliverWebhookDeliveryOperation } from "../events/redeliver-webhook-delivery";

export const eventsOperations = {
  // Events: every change, in order, for applications to follow (the feed) or to receive (webhooks).
  listEvents: listEventsOperation,
  listWebhooks: listWebhooksOperation,
  createWebhook: createWebhookOperation,
  getWebhook: getWebhookOperation,
  updateWebhook: updateWebhookOperation,
  deleteWebhook: deleteWebhookOperation,
  rotateWebhookSecret: rotateWebhookSecretOperation,
  testWebhook: testWebhookOperation,
  listWebhookDeliveries: listWebhookDeliveriesOperation,
  redeliverWebhookDelivery: redeliverWebhookDeliveryOperation,
};
