import { recordAudit } from "@/lib/audit/audit";
import { actorOf, type Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { authorizationUrl, hashState, randomToken } from "../oauth";
import type { ProviderId } from "../provider";
import { PROVIDERS, providerEndpoints } from "../providers";
import type { ReconnectConnectionBody } from "../schemas";
import { defaultRedirectUri, requireClient, STATE_TTL_MS } from "./authorization-flow";
import { assertMayWrite } from "./connection-access";
import { encryptSecret } from "./connection-secrets";
import { getConnection } from "./get-connection";

/**
 * A new authorization for an existing connection (its access was refused or revoked, or another account
 * should be used): a fresh single-use state and verifier, the same connection. Its documents stay, so the
 * sync after completing changes only what differs.
 */
export async function reconnectConnection(principal: Principal, id: string, body: ReconnectConnectionBody) {
  assertMayWrite(principal);
  const connection = await getConnection(principal, id);
  const provider = PROVIDERS[connection.provider as ProviderId];
  const client = await requireClient(principal.orgId, provider);
  const state = randomToken();
  const codeVerifier = provider.pkce ? randomToken() : null;
  const redirectUri = body.redirect_uri ?? defaultRedirectUri();
  const prisma = await db();
  const updated = await prisma.$transaction(async (tx) => {
    // updateMany: a connection deleted meanwhile is not found, not a database error.
    const [saved] = await tx.integrationConnection.updateManyAndReturn({
      where: { id: connection.id, orgId: connection.orgId },
      data: {
        redirectUri,
        stateHash: hashState(state),
        stateExpiresAt: new Date(Date.now() + STATE_TTL_MS),
        codeVerifierEncrypted: codeVerifier ? encryptSecret(connection, "code_verifier", codeVerifier) : null,
        // A new flow: whichever browser started the last one has nothing to do with this one.
        browserBindingHash: null,
      },
    });
    if (!saved) throw notFound(`Integration connection ${id}`);
    await recordAudit(tx, {
      orgId: connection.orgId,
      actor: actorOf(principal),
      action: "integration.reconnect",
      targetType: "integration_connection",
      targetId: connection.id,
      details: { provider: provider.id, namespace_id: connection.namespaceId },
    });
    return saved;
  });
  const url = authorizationUrl(provider, providerEndpoints(provider).authUrl, client, {
    redirectUri,
    state,
    codeVerifier,
  });
  return { connection: updated, authorizationUrl: url };
}
