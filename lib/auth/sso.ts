import { ConflictError, InvalidError, notFound } from "@/lib/errors";
import { recordAudit, type Actor } from "@/lib/audit/audit";
import { decrypt, encrypt } from "@/lib/crypto/encryption";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { checkOutboundUrl } from "@/lib/net/outbound";
import type { OidcConnectionForm } from "./schemas";

const SSO_PROVIDER_PREFIX = "sso-";

/** Each organization's identity provider is its own next-auth provider: `sso-<organization id>`. */
export function ssoProviderId(orgId: string): string {
  return SSO_PROVIDER_PREFIX + orgId;
}

export function orgIdOfSsoProvider(providerId: string | undefined): string | null {
  return providerId?.startsWith(SSO_PROVIDER_PREFIX) ? providerId.slice(SSO_PROVIDER_PREFIX.length) : null;
}

const secretContext = (orgId: string, connectionId: string) => `oidc_connections:${orgId}:${connectionId}`;

/** What the settings page shows: never the secret. */
export async function getOidcConnection(orgId: string) {
  const prisma = await db();
  const connection = await prisma.oidcConnection.findUnique({ where: { orgId } });
  if (!connection) return null;
  return {
    issuer: connection.issuer,
    clientId: connection.clientId,
    allowedDomains: connection.allowedDomains,
    updatedAt: connection.updatedAt,
  };
}

export async function saveOidcConnection(orgId: string, input: OidcConnectionForm, actor: Actor) {
  // The server fetches the issuer's discovery document: https and a public address only (unless the
  // operator allows private ones), refused here with a field error before anything is stored.
  checkOutboundUrl(input.issuer, "issuer");
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const existing = await tx.oidcConnection.findUnique({ where: { orgId } });
    if (!existing && !input.client_secret) {
      throw new InvalidError("A client secret is needed to set up SSO.", [
        { field: "client_secret", message: "must not be empty" },
      ]);
    }
    const id = existing?.id ?? newId("sso");
    const clientSecretEncrypted = input.client_secret
      ? encrypt(input.client_secret, secretContext(orgId, id))
      : existing!.clientSecretEncrypted;
    const data = {
      issuer: input.issuer.replace(/\/+$/, ""),
      clientId: input.client_id,
      clientSecretEncrypted,
      allowedDomains: [...new Set(input.allowed_domains)],
    };
    const saved = existing
      ? await tx.oidcConnection.update({ where: { id }, data })
      : await tx.oidcConnection.create({ data: { id, orgId, ...data } });
    await recordAudit(tx, {
      orgId,
      actor,
      action: existing ? "sso.update" : "sso.create",
      targetType: "oidc_connection",
      targetId: id,
      details: {
        issuer: data.issuer,
        client_id: data.clientId,
        allowed_domains: data.allowedDomains,
        secret_changed: Boolean(input.client_secret),
      },
    });
    return saved;
  });
}

/** The connection with its secret decrypted, for the sign-in itself. */
export async function oidcCredentials(orgId: string) {
  const prisma = await db();
  const connection = await prisma.oidcConnection.findUnique({ where: { orgId }, include: { org: true } });
  if (!connection) return null;
  return {
    org: connection.org,
    issuer: connection.issuer,
    clientId: connection.clientId,
    clientSecret: decrypt(connection.clientSecretEncrypted, secretContext(orgId, connection.id)),
    allowedDomains: connection.allowedDomains,
  };
}

/**
 * The connection to sign in through, only for an organization that allows SSO and whose stored issuer
 * passes today's outbound rules (a connection saved before them may not): nothing is fetched for any
 * other organization.
 */
export async function ssoSignInConnection(orgId: string) {
  const connection = await oidcCredentials(orgId);
  if (!connection?.org.allowSso) return null;
  try {
    checkOutboundUrl(connection.issuer, "issuer");
  } catch {
    return null;
  }
  return connection;
}

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

/**
 * The organization whose identity provider "Continue with SSO" sends someone to: by slug, or by the
 * domain of a work email. Only organizations that allow SSO and have a connection qualify. Domains are
 * not verified, so when several organizations list one, the email picks none of them: the person
 * names their organization's slug instead.
 */
export async function findSsoOrganization(emailOrSlug: string) {
  const value = emailOrSlug.trim().toLowerCase();
  const byEmail = value.includes("@");
  const prisma = await db();
  const connections = await prisma.oidcConnection.findMany({
    where: byEmail
      ? { allowedDomains: { has: emailDomain(value) }, org: { allowSso: true } }
      : { org: { slug: value, allowSso: true } },
    include: { org: true },
    take: 2,
  });
  if (connections.length === 0)
    throw notFound(byEmail ? `Single sign-on for ${emailDomain(value)}` : `Single sign-on for organization ${value}`);
  if (connections.length > 1) {
    throw new ConflictError(
      `More than one organization uses single sign-on for ${emailDomain(value)}: ` +
        "enter your organization's slug instead.",
    );
  }
  return connections[0].org;
}
