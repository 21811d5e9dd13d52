import { recordAudit, type Actor } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { ConflictError, InvalidError, notFound, UpstreamError } from "@/lib/errors";
import type { IntegrationConnection } from "@/lib/generated/prisma/client";
import { enqueueJob } from "@/lib/jobs/queue";
import { oauthClientFor } from "../clients";
import { exchangeCode, GrantRefusedError } from "../oauth";
import type { ProviderId } from "../provider";
import { PROVIDERS, providerEndpoints } from "../providers";
import { decryptSecret, encryptSecret } from "./connection-secrets";
import { SYNC_JOB_KIND, syncJobKey } from "./sync-job";

/** Keeps why a flow failed on the connection, for its page to say. */
export async function markConnection(connection: IntegrationConnection, data: { lastError: string }) {
  const prisma = await db();
  await prisma.integrationConnection.updateMany({ where: { id: connection.id, orgId: connection.orgId }, data });
}

/** Exchanges the code, stores the tokens encrypted, marks the connection active and queues its first sync. */
export async function finishConnection(connection: IntegrationConnection, code: string, actor: Actor) {
  const provider = PROVIDERS[connection.provider as ProviderId];
  const client = await oauthClientFor(connection.orgId, provider.id);
  if (!client) throw new ConflictError(`${provider.name} is no longer configured for this organization.`);
  const codeVerifier = connection.codeVerifierEncrypted
    ? decryptSecret(connection, "code_verifier", connection.codeVerifierEncrypted)
    : null;
  let tokens;
  try {
    tokens = await exchangeCode(provider, providerEndpoints(provider).tokenUrl, client, {
      code,
      redirectUri: connection.redirectUri,
      codeVerifier,
    });
  } catch (error) {
    const message =
      error instanceof GrantRefusedError
        ? `${provider.name} refused the authorization code (${error.providerError}): connect again.`
        : `${provider.name} could not be reached to finish connecting: ${(error as Error).message}`;
    await markConnection(connection, { lastError: message });
    if (error instanceof GrantRefusedError) throw new InvalidError(message, [{ field: "body.code", message }]);
    throw new UpstreamError(message);
  }
  const prisma = await db();
  const active = await prisma.$transaction(async (tx) => {
    const [updated] = await tx.integrationConnection.updateManyAndReturn({
      where: { id: connection.id, orgId: connection.orgId },
      data: {
        status: "active",
        codeVerifierEncrypted: null,
        accessTokenEncrypted: encryptSecret(connection, "access_token", tokens.accessToken),
        refreshTokenEncrypted: tokens.refreshToken
          ? encryptSecret(connection, "refresh_token", tokens.refreshToken)
          : null,
        tokenExpiresAt: tokens.expiresAt,
        account: tokens.account,
        lastError: null,
      },
    });
    if (!updated) throw notFound(`Integration connection ${connection.id}`);
    await recordAudit(tx, {
      orgId: connection.orgId,
      actor,
      action: "integration.connect",
      targetType: "integration_connection",
      targetId: connection.id,
      details: { provider: provider.id, namespace_id: connection.namespaceId, account: tokens.account },
    });
    return updated;
  });
  await enqueueJob({
    kind: SYNC_JOB_KIND,
    orgId: connection.orgId,
    key: syncJobKey(connection.id),
    payload: { connectionId: connection.id },
  });
  return active;
}
