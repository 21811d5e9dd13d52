import { recordAudit, type Actor } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { recordKeysEnded } from "@/lib/event-recording/key-events";

/**
 * The authorization server revoked a grant by itself (a refresh token used twice: the chain is presumed
 * stolen): the connection's key ends too.
 */
export async function endConnectionOfGrant(grantId: string, reason: string) {
  const prisma = await db();
  const keys = await prisma.apiKey.findMany({ where: { oauthGrantId: grantId, revokedAt: null } });
  await endConnectionKeys(keys, { type: "system" }, reason);
}

/** Ends connections: each key revoked, its grant and tokens deleted, one audit entry each. */
export async function endConnectionKeys(
  keys: { id: string; orgId: string; name: string; oauthClientId: string | null; oauthGrantId: string | null }[],
  actor: Actor,
  reason: string,
) {
  if (keys.length === 0) return;
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    for (const key of keys) {
      await tx.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
      if (key.oauthGrantId) await tx.oauthRecord.deleteMany({ where: { grantId: key.oauthGrantId } });
      await recordAudit(tx, {
        orgId: key.orgId,
        actor,
        action: "mcp_client.revoke",
        targetType: "api_key",
        targetId: key.id,
        details: { name: key.name, reason },
      });
      await recordKeysEnded(tx, key.orgId, [key], reason);
    }
  });
}
