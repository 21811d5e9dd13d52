import { actorOf, type Principal } from "@/lib/auth/principal";
import { recordAudit } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { checkOutboundUrl } from "@/lib/net/outbound";
import type { UpdateWebhookBody } from "./schemas";
import { closeCircuit } from "./endpoint-circuit";
import { assertNamespacesUsable, findEndpoint } from "./webhook-access";
import { queueDeliveryJob } from "./queue-delivery-job";

/**
 * Changes an endpoint. Disabling keeps its undelivered events, which wait; enabling (a person's fix after it
 * was disabled for failing) resumes them where they stopped, the delivery that failed for good first, and
 * clears the reason. Enabling, disabling or changing its URL closes its circuit (endpoint-circuit.ts): a person
 * says the receiver is fixed, or names another; a disabled endpoint is sent nothing, so it has no circuit to show.
 */
export async function updateWebhook(principal: Principal, id: string, body: UpdateWebhookBody) {
  await findEndpoint(principal, id);
  if (body.namespace_ids) await assertNamespacesUsable(principal, body.namespace_ids);
  // As when created: the form and an IP literal now, a name at each delivery's connection.
  if (body.url !== undefined) checkOutboundUrl(body.url);
  const prisma = await db();
  const updated = await prisma.$transaction(async (tx) => {
    const before = await findEndpoint(principal, id, tx);
    const enabling = body.enabled === true && !before.enabled;
    const disabling = body.enabled === false && before.enabled;
    const newReceiver = enabling || (body.url !== undefined && body.url !== before.url);
    if (newReceiver || disabling) await closeCircuit(before, tx);
    const endpoint = await tx.webhookEndpoint.update({
      where: { id: before.id, orgId: principal.orgId },
      data: {
        url: body.url,
        description: body.description,
        eventTypes: body.event_types,
        namespaceIds: body.namespace_ids,
        includeContent: body.include_content,
        enabled: body.enabled,
        ...(enabling && { disabledReason: null, disabledAt: null }),
        ...(disabling && { disabledReason: "Disabled by a person.", disabledAt: new Date() }),
      },
    });
    await recordAudit(tx, {
      orgId: principal.orgId,
      actor: actorOf(principal),
      action: "webhook.update",
      targetType: "webhook_endpoint",
      targetId: id,
      details: { changed: Object.keys(body), ...(body.url !== undefined && { url: body.url }) },
    });
    // Deliveries that waited for the closed circuit go now (the job may be queued for the cooldown's end).
    if (newReceiver && before.circuitOpenUntil && !enabling) await queueDeliveryJob(tx, endpoint);
    if (enabling) {
      // What failed through every retry when it was disabled is tried again first (it is the oldest pending).
      await tx.webhookDelivery.updateMany({
        where: {
          endpointId: endpoint.id,
          orgId: principal.orgId,
          status: "failed",
          ...(before.disabledAt && { updatedAt: { gte: new Date(before.disabledAt.getTime() - 60_000) } }),
        },
        data: { status: "pending", attempts: 0, firstFailedAt: null, nextAttemptAt: new Date(), updatedAt: new Date() },
      });
      await queueDeliveryJob(tx, endpoint);
    }
    return endpoint;
  });
  return updated;
}
