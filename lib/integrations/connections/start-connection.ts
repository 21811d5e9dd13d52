import { recordAudit } from "@/lib/audit/audit";
import { actorOf, type Principal } from "@/lib/auth/principal";
import { db, type Prisma } from "@/lib/db";
import { newId } from "@/lib/ids";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { authorizationUrl, hashState, randomToken } from "../oauth";
import { PROVIDERS, providerEndpoints } from "../providers";
import type { CreateConnectionBody } from "../schemas";
import { defaultRedirectUri, requireClient, STATE_TTL_MS } from "./authorization-flow";
import { assertMayWrite } from "./connection-access";
import { encryptSecret } from "./connection-secrets";

/**
 * Starts connecting a namespace: a pending connection and the provider's authorization URL, with a
 * single-use state (only its hash is stored) bound to this organization, this connection and the
 * redirect URI, valid for 10 minutes, and a PKCE verifier where the provider takes one.
 */
export async function startConnection(principal: Principal, body: CreateConnectionBody) {
  assertMayWrite(principal);
  const provider = PROVIDERS[body.provider];
  const options = (body.options ?? {}) as Prisma.InputJsonObject;
  const namespace = await resolveTarget(principal, body);
  const client = await requireClient(principal.orgId, provider);
  const id = newId("int");
  const state = randomToken();
  const codeVerifier = provider.pkce ? randomToken() : null;
  const redirectUri = body.redirect_uri ?? defaultRedirectUri();
  const row = { orgId: principal.orgId, id };
  const prisma = await db();
  const connection = await prisma.$transaction(async (tx) => {
    const created = await tx.integrationConnection.create({
      data: {
        ...row,
        namespaceId: namespace.id,
        provider: provider.id,
        status: "pending",
        options,
        redirectUri,
        stateHash: hashState(state),
        stateExpiresAt: new Date(Date.now() + STATE_TTL_MS),
        codeVerifierEncrypted: codeVerifier ? encryptSecret(row, "code_verifier", codeVerifier) : null,
        createdByUserId: principal.kind === "member" ? principal.userId : null,
        createdByKeyId: principal.kind === "api_key" ? principal.keyId : null,
      },
    });
    await recordAudit(tx, {
      orgId: principal.orgId,
      actor: actorOf(principal),
      action: "integration.start",
      targetType: "integration_connection",
      targetId: id,
      details: { provider: provider.id, namespace_id: namespace.id, options },
    });
    return created;
  });
  const url = authorizationUrl(provider, providerEndpoints(provider).authUrl, client, {
    redirectUri,
    state,
    codeVerifier,
  });
  return { connection, authorizationUrl: url };
}
