import type { Tx } from "@/lib/db";

/**
 * A revoked connected client's OAuth grant goes with its key: its refresh token can no longer mint access
 * tokens (which its key would refuse anyway).
 */
export async function deleteOauthGrants(tx: Tx, keys: { oauthGrantId: string | null }[]) {
  const grantIds = keys.flatMap((key) => (key.oauthGrantId ? [key.oauthGrantId] : []));
  if (grantIds.length > 0) await tx.oauthRecord.deleteMany({ where: { grantId: { in: grantIds } } });
}
