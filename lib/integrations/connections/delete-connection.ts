import { recordAudit } from "@/lib/audit/audit";
import { actorOf, type Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { recordErasure } from "@/lib/erasure-receipts/record-erasure";
import { notFound } from "@/lib/errors";
import { cancelQueuedJob } from "@/lib/jobs/queue";
import { deleteMemories } from "@/lib/memory/store/deletion";
import { oauthClientFor } from "../clients";
import type { ProviderId } from "../provider";
import { PROVIDERS, providerEndpoints } from "../providers";
import { assertMayWrite } from "./connection-access";
import { memoriesOfConnection } from "./connection-memories";
import { decryptSecret } from "./connection-secrets";
import { getConnection } from "./get-connection";
import { syncJobKey } from "./sync-job";

const REVOKE_TIMEOUT_MS = 10_000;

/**
 * Revokes the token at the provider (where it offers revocation; a provider that cannot be reached does
 * not keep the connection alive), deletes the connection with its tokens and, unless kept, every memory it
 * brought. A sync under way notices the connection is gone and stops.
 */
export async function deleteConnection(principal: Principal, id: string, keepMemories: boolean) {
  assertMayWrite(principal);
  const connection = await getConnection(principal, id);
  const provider = PROVIDERS[connection.provider as ProviderId];
  let tokenRevoked = false;
  if (connection.accessTokenEncrypted) {
    const client = await oauthClientFor(connection.orgId, provider.id);
    if (client) {
      const revocation = provider.module.revoke({
        endpoints: providerEndpoints(provider),
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        accessToken: decryptSecret(connection, "access_token", connection.accessTokenEncrypted),
      });
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error("timed out")), REVOKE_TIMEOUT_MS).unref(),
      );
      tokenRevoked = await Promise.race([revocation, timeout]).then(
        () => true,
        (error) => {
          console.error(
            `[memgw] revoking ${provider.name} token of ${connection.id} failed: ${(error as Error).message}`,
          );
          return false;
        },
      );
    }
  }
  await cancelQueuedJob(syncJobKey(connection.id));
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const memoryIds = await memoriesOfConnection(tx, connection);
    const { chunksDeleted, factsDeleted } = keepMemories
      ? { chunksDeleted: 0, factsDeleted: 0 }
      : await deleteMemories(tx, connection.orgId, connection.namespaceId, memoryIds, {
          reason: "integration_deleted",
        });
    const { count } = await tx.integrationConnection.deleteMany({
      where: { id: connection.id, orgId: connection.orgId },
    });
    // Deleted by a concurrent request: that one reports it; this one found nothing to delete.
    if (count === 0) throw notFound(`Integration connection ${connection.id}`);
    const result = {
      deleted: true as const,
      memories_deleted: keepMemories ? 0 : memoryIds.length,
      memories_kept: keepMemories ? memoryIds.length : 0,
      token_revoked: tokenRevoked,
    };
    // Deleting the memories it brought is a deletion request like a forget: on record with a receipt.
    const erasure = keepMemories
      ? undefined
      : await recordErasure(tx, principal, {
          kind: "integration.delete",
          namespaceId: connection.namespaceId,
          namespaces: [
            {
              namespaceId: connection.namespaceId,
              name: (await tx.namespace.findUnique({ where: { id: connection.namespaceId } }))?.name ?? "",
              memoriesDeleted: memoryIds.length + factsDeleted,
              chunksDeleted,
              factsDeleted,
            },
          ],
          selector: { connection_id: connection.id },
        });
    await recordAudit(tx, {
      orgId: connection.orgId,
      actor: actorOf(principal),
      action: "integration.delete",
      targetType: "integration_connection",
      targetId: connection.id,
      details: {
        provider: provider.id,
        namespace_id: connection.namespaceId,
        ...result,
        ...(erasure && { erasure_id: erasure.id }),
      },
    });
    return result;
  });
}
