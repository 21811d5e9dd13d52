import { actorOf, type Principal } from "@/lib/auth/principal";
import { recordAudit } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { findEndpoint } from "./webhook-access";
import { queueDeliveryJob } from "./queue-delivery-job";

/**
 * Sends a delivery again (delivered, failed for good, or waiting for a retry): it is pending with a fresh
 * retry schedule, due now, with the same `webhook-id` (a receiver that has it already can tell).
 */
export async function redeliver(principal: Principal, endpointId: string, deliveryId: string) {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const endpoint = await findEndpoint(principal, endpointId, tx);
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, endpointId: endpoint.id, orgId: principal.orgId },
      data: { status: "pending", attempts: 0, firstFailedAt: null, nextAttemptAt: new Date(), updatedAt: new Date() },
    });
    if (count === 0) throw notFound(`Delivery ${deliveryId}`);
    await recordAudit(tx, {
      orgId: principal.orgId,
      actor: actorOf(principal),
      action: "webhook.redeliver",
      targetType: "webhook_endpoint",
      targetId: endpoint.id,
      details: { delivery_id: deliveryId },
    });
    await queueDeliveryJob(tx, endpoint);
  });
  return { id: deliveryId, queued: true as const };
}
