import { SYSTEM_ACTOR, recordAudit } from "@/lib/audit/audit";
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { recordEvents, type NewEvent } from "./record-events";

type EndedKey = { id: string; name: string; oauthClientId: string | null };

/** The event of a key's end: api_key.revoked, or connection.revoked for a connected MCP client's key. */
function revokedKeyEvent(key: EndedKey, reason: string, namespaceId: string | null): NewEvent {
  return key.oauthClientId
    ? { type: "connection.revoked", namespaceId, data: { connection_id: key.id, client_name: key.name, reason } }
    : { type: "api_key.revoked", namespaceId, data: { api_key_id: key.id, name: key.name, reason } };
}

/**
 * Within the transaction that revokes keys: their events, and the webhook endpoints they made disabled (such an
 * endpoint receives only what its key may read, and an ended key may read nothing), each with an audit entry.
 */
export async function recordKeysEnded(
  tx: Tx,
  orgId: string,
  keys: EndedKey[],
  reason: string,
  namespaceId: string | null = null,
) {
  if (keys.length === 0) return;
  await recordEvents(
    tx,
    orgId,
    keys.map((key) => revokedKeyEvent(key, reason, namespaceId)),
  );
  const disabledReason = "The API key that made this endpoint was revoked.";
  const endpoints = await tx.$queryRaw<{ id: string; url: string }[]>(
    Prisma.sql`UPDATE webhook_endpoints SET enabled = false, disabled_reason = ${disabledReason}, disabled_at = now(),
                                            updated_at = now()
               WHERE org_id = ${orgId} AND api_key_id = ANY(${keys.map((key) => key.id)}::text[]) AND enabled
               RETURNING id, url`,
  );
  for (const endpoint of endpoints) {
    await recordAudit(tx, {
      orgId,
      actor: SYSTEM_ACTOR,
      action: "webhook.disable",
      targetType: "webhook_endpoint",
      targetId: endpoint.id,
      details: { url: endpoint.url, reason: disabledReason },
    });
  }
}
