import { actorOf, type Principal } from "@/lib/auth/principal";
import { recordAudit } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { findEndpoint } from "./webhook-access";
import { encryptWebhookSecret, newWebhookSecret } from "./webhook-secret";

const DEFAULT_OVERLAP_HOURS = 24;

/**
 * A new signing secret, returned this once. The old one keeps signing beside it for `overlapHours` (both
 * signatures in `webhook-signature`), so a receiver can switch to the new secret without refusing a delivery.
 */
export async function rotateWebhookSecret(principal: Principal, id: string, overlapHours = DEFAULT_OVERLAP_HOURS) {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const before = await findEndpoint(principal, id, tx);
    const secret = newWebhookSecret();
    const endpoint = await tx.webhookEndpoint.update({
      where: { id: before.id, orgId: principal.orgId },
      data: {
        secretEncrypted: encryptWebhookSecret(before, secret),
        previousSecretEncrypted: overlapHours > 0 ? before.secretEncrypted : null,
        previousSecretExpiresAt: overlapHours > 0 ? new Date(Date.now() + overlapHours * 3_600_000) : null,
      },
    });
    await recordAudit(tx, {
      orgId: principal.orgId,
      actor: actorOf(principal),
      action: "webhook.rotate_secret",
      targetType: "webhook_endpoint",
      targetId: id,
      details: { overlap_hours: overlapHours },
    });
    return { endpoint, secret };
  });
}
