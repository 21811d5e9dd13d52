import { recordAudit, type Actor } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { recordKeysEnded } from "@/lib/event-recording/key-events";
import { deleteOauthGrants } from "./delete-oauth-grants";

/**
 * Revocation is immediate: keys are looked up on every request, never cached. Revoking twice is a no-op.
 * `within` bounds the lookup to an organization and, for a console member, to the keys they created.
 */
export async function revokeApiKey(keyId: string, actor: Actor, within: { orgId?: string; createdById?: string } = {}) {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({ where: { id: keyId, ...within } });
    if (!key) throw notFound(`API key ${keyId}`);
    if (key.revokedAt) return key;
    const revoked = await tx.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    await deleteOauthGrants(tx, [key]);
    await recordAudit(tx, {
      orgId: key.orgId,
      actor,
      action: "api_key.revoke",
      targetType: "api_key",
      targetId: key.id,
      details: { name: key.name },
    });
    await recordKeysEnded(tx, key.orgId, [key], "revoked");
    return revoked;
  });
}
