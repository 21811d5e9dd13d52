import { actorOf, type Principal } from "@/lib/auth/principal";
import { recordAudit } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { checkOutboundUrl } from "@/lib/net/outbound";
import type { CreateWebhookBody } from "./schemas";
import { assertNamespacesUsable } from "./webhook-access";
import { encryptWebhookSecret, newWebhookSecret } from "./webhook-secret";

/**
 * Adds an endpoint; its signing secret is returned this once. The URL is checked now (https, no refused IP
 * literal) and where its name leads at every delivery's connection. Made with a key, the endpoint receives only
 * what the key may read, for as long as the key is active (lib/event-recording/record-events.ts).
 */
export async function createWebhook(principal: Principal, body: CreateWebhookBody) {
  const namespaceIds = body.namespace_ids ?? [];
  await assertNamespacesUsable(principal, namespaceIds);
  // The URL's form and an IP literal host are checked now; a name is not resolved: one that does not resolve
  // yet (a receiver being set up) is no reason to refuse, and where it leads is checked at each connection.
  checkOutboundUrl(body.url);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const id = newId("whk");
    const secret = newWebhookSecret();
    const endpoint = await tx.webhookEndpoint.create({
      data: {
        id,
        orgId: principal.orgId,
        url: body.url,
        description: body.description ?? "",
        eventTypes: body.event_types ?? [],
        namespaceIds,
        includeContent: body.include_content ?? false,
        enabled: body.enabled ?? true,
        disabledReason: body.enabled === false ? "Created disabled." : null,
        disabledAt: body.enabled === false ? new Date() : null,
        secretEncrypted: encryptWebhookSecret({ orgId: principal.orgId, id }, secret),
        apiKeyId: principal.kind === "api_key" ? principal.keyId : null,
        createdById: principal.kind === "member" ? principal.userId : null,
      },
    });
    await recordAudit(tx, {
      orgId: principal.orgId,
      actor: actorOf(principal),
      action: "webhook.create",
      targetType: "webhook_endpoint",
      targetId: id,
      details: { url: endpoint.url, event_types: endpoint.eventTypes, namespace_ids: namespaceIds },
    });
    return { endpoint, secret };
  });
}
