import { SYSTEM_ACTOR, recordAudit } from "@/lib/audit/audit";
import { escapeHtml, sendMail } from "@/lib/auth/mail";
import { publicUrl } from "@/lib/config";
import { db } from "@/lib/db";
import { closeCircuit } from "./endpoint-circuit";

/**
 * Disables an endpoint the gateway gave up on (its deliveries failed through every retry, or the key that made
 * it ended): an audit entry says why, and the organization's owners are emailed. Its undelivered events wait;
 * enabling it again resumes them. Its circuit closes (endpoint-circuit.ts). Returns false when it was already
 * disabled (nothing more is said).
 */
export async function disableEndpoint(endpoint: { id: string; orgId: string; url: string }, reason: string) {
  const prisma = await db();
  const disabled = await prisma.$transaction(async (tx) => {
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id: endpoint.id, orgId: endpoint.orgId, enabled: true },
      data: { enabled: false, disabledReason: reason, disabledAt: new Date() },
    });
    if (count === 0) return false;
    // Its failures are told by the reason; enabled again, it starts with a closed circuit.
    await closeCircuit(endpoint, tx);
    await recordAudit(tx, {
      orgId: endpoint.orgId,
      actor: SYSTEM_ACTOR,
      action: "webhook.disable",
      targetType: "webhook_endpoint",
      targetId: endpoint.id,
      details: { url: endpoint.url, reason },
    });
    return true;
  });
  if (disabled) await tellOwners(endpoint, reason);
  return disabled;
}

async function tellOwners(endpoint: { id: string; orgId: string; url: string }, reason: string) {
  const prisma = await db();
  const org = await prisma.organization.findUnique({
    where: { id: endpoint.orgId },
    select: {
      name: true,
      slug: true,
      memberships: { where: { role: "owner" }, select: { user: { select: { email: true } } } },
    },
  });
  if (!org) return;
  const page = `${publicUrl()}/${org.slug}/webhooks`;
  const text =
    `Memory Gateway stopped sending events of ${org.name} to ${endpoint.url} and disabled the endpoint: ${reason}\n\n` +
    `Its undelivered events wait. Fix the receiver, then enable the endpoint again at ${page}.`;
  for (const { user } of org.memberships) {
    await sendMail({
      to: user.email,
      subject: `Webhook endpoint disabled in ${org.name}`,
      text,
      html:
        `<p>Memory Gateway stopped sending events of ${escapeHtml(org.name)} to ${escapeHtml(endpoint.url)} and ` +
        `disabled the endpoint: ${escapeHtml(reason)}</p><p>Its undelivered events wait. Fix the receiver, then ` +
        `<a href="${escapeHtml(page)}">enable the endpoint again</a>.</p>`,
    }).catch((error) => console.error(`[memgw] mailing ${user.email} about a disabled webhook failed:`, error));
  }
}
