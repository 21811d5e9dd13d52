import { recordAudit, type Actor } from "@/lib/audit/audit";
import type { Tx } from "@/lib/db";
import { recordKeysEnded } from "@/lib/event-recording/key-events";
import { activeKeyWhere } from "./active-keys";
import { deleteOauthGrants } from "./delete-oauth-grants";

/**
 * When a member leaves, the keys they created either die with their membership or pass to `transferTo`
 * (another member, usually the person removing them), whose role then bounds them. The MCP clients they
 * connected always end: a connection acts as its person, never as someone else. Runs inside the removal's
 * transaction, one audit entry per key.
 */
export async function settleKeysOfDepartingMember(
  tx: Tx,
  input: { orgId: string; userId: string; transferTo?: string },
  actor: Actor,
) {
  const keys = await tx.apiKey.findMany({
    where: { orgId: input.orgId, createdById: input.userId, ...activeKeyWhere() },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const transferred = input.transferTo ? keys.filter((key) => !key.oauthClientId) : [];
  const revoked = keys.filter((key) => !transferred.includes(key));
  if (transferred.length > 0) {
    const where = { id: { in: transferred.map((key) => key.id) }, orgId: input.orgId };
    await tx.apiKey.updateMany({ where, data: { createdById: input.transferTo } });
  }
  if (revoked.length > 0) {
    const where = { id: { in: revoked.map((key) => key.id) }, orgId: input.orgId };
    await tx.apiKey.updateMany({ where, data: { revokedAt: new Date() } });
    await deleteOauthGrants(tx, revoked);
    await recordKeysEnded(tx, input.orgId, revoked, "creator removed from the organization");
  }
  for (const key of keys) {
    const transfer = transferred.includes(key);
    await recordAudit(tx, {
      orgId: input.orgId,
      actor,
      action: transfer ? "api_key.transfer" : key.oauthClientId ? "mcp_client.revoke" : "api_key.revoke",
      targetType: "api_key",
      targetId: key.id,
      details: transfer
        ? { name: key.name, from_user_id: input.userId, to_user_id: input.transferTo }
        : { name: key.name, reason: "creator removed from the organization", creator_user_id: input.userId },
    });
  }
  return { revoked: revoked.map((key) => key.id), transferred: transferred.map((key) => key.id) };
}
