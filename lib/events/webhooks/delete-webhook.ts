import { actorOf, type Principal } from "@/lib/auth/principal";
import { recordAudit } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { cancelQueuedJob } from "@/lib/jobs/queue";
import { webhookJobKey } from "@/lib/event-recording/webhook-delivery-job";
import { findEndpoint } from "./webhook-access";

/** Deletes an endpoint with its delivery log; what it had not received yet is never sent. */
export async function deleteWebhook(principal: Principal, id: string) {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const endpoint = await findEndpoint(principal, id, tx);
    await tx.webhookEndpoint.delete({ where: { id: endpoint.id, orgId: principal.orgId } });
    await recordAudit(tx, {
      orgId: principal.orgId,
      actor: actorOf(principal),
      action: "webhook.delete",
      targetType: "webhook_endpoint",
      targetId: id,
      details: { url: endpoint.url },
    });
  });
  await cancelQueuedJob(webhookJobKey(id));
  return { id, deleted: true as const };
}
