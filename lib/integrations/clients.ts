// An organization's own OAuth client per provider (entered by owners in the console), used instead of the
// deployment's. The secret is encrypted bound to the organization and the row, and never shown again.
import { z } from "zod";
import { recordAudit, type Actor } from "@/lib/audit/audit";
import { decrypt, encrypt } from "@/lib/crypto/encryption";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { identifier, text } from "@/lib/validation/strings";
import type { ProviderId } from "./provider";
import { deploymentClient, PROVIDER_LIST, PROVIDERS } from "./providers";
import { ProviderIdSchema } from "./schemas";
import type { OAuthClient } from "./oauth";

export const IntegrationClientForm = z.strictObject({
  provider: ProviderIdSchema,
  client_id: identifier({ min: 1, max: 500, lengthMessage: "must be 1 to 500 characters" }),
  client_secret: text({ min: 1, max: 2000, notBlank: true, lengthMessage: "must be 1 to 2000 characters" }),
});
export type IntegrationClientForm = z.infer<typeof IntegrationClientForm>;

const secretContext = (orgId: string, id: string) => `integration_clients:${orgId}:${id}`;

export async function saveIntegrationClient(orgId: string, input: IntegrationClientForm, actor: Actor) {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const existing = await tx.integrationClient.findUnique({
      where: { orgId_provider: { orgId, provider: input.provider } },
    });
    const id = existing?.id ?? newId("ic");
    const data = {
      clientId: input.client_id,
      clientSecretEncrypted: encrypt(input.client_secret, secretContext(orgId, id)),
    };
    if (existing) await tx.integrationClient.update({ where: { id, orgId }, data });
    else await tx.integrationClient.create({ data: { id, orgId, provider: input.provider, ...data } });
    await recordAudit(tx, {
      orgId,
      actor,
      action: existing ? "integration_client.update" : "integration_client.create",
      targetType: "integration_client",
      targetId: id,
      details: { provider: input.provider, client_id: input.client_id },
    });
    return { provider: input.provider, clientId: input.client_id };
  });
}

export async function deleteIntegrationClient(orgId: string, provider: ProviderId, actor: Actor) {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const existing = await tx.integrationClient.findUnique({ where: { orgId_provider: { orgId, provider } } });
    if (!existing) throw notFound(`An OAuth client of this organization for ${PROVIDERS[provider].name}`);
    await tx.integrationClient.delete({ where: { id: existing.id, orgId } });
    await recordAudit(tx, {
      orgId,
      actor,
      action: "integration_client.delete",
      targetType: "integration_client",
      targetId: existing.id,
      details: { provider },
    });
  });
}

/** The OAuth client connections of this organization use: its own, else the deployment's, else none. */
export async function oauthClientFor(orgId: string, provider: ProviderId): Promise<OAuthClient | null> {
  const prisma = await db();
  const own = await prisma.integrationClient.findUnique({ where: { orgId_provider: { orgId, provider } } });
  if (own) {
    return { clientId: own.clientId, clientSecret: decrypt(own.clientSecretEncrypted, secretContext(orgId, own.id)) };
  }
  return deploymentClient(PROVIDERS[provider]);
}

/** Every provider, with whether (and by whom) it is configured for this organization. */
export async function listProviders(orgId: string) {
  const prisma = await db();
  const own = await prisma.integrationClient.findMany({ where: { orgId }, select: { provider: true, clientId: true } });
  return PROVIDER_LIST.map((provider) => {
    const organization = own.find((client) => client.provider === provider.id);
    const configuredBy = organization ? "organization" : deploymentClient(provider) ? "deployment" : null;
    return {
      id: provider.id,
      name: provider.name,
      syncs: provider.syncs,
      scopes: provider.scopes,
      configured: configuredBy !== null,
      configured_by: configuredBy,
      /** The organization's own client id (not secret), for the console's form. */
      organizationClientId: organization?.clientId ?? null,
    };
  });
}
