import { decrypt, encrypt } from "@/lib/crypto/encryption";

type Secret = "access_token" | "refresh_token" | "code_verifier";

/** Each secret of a connection is encrypted bound to its organization, its row and what it is. */
export function secretContext(connection: { orgId: string; id: string }, secret: Secret) {
  return `integration_connections:${connection.orgId}:${connection.id}:${secret}`;
}

export function encryptSecret(connection: { orgId: string; id: string }, secret: Secret, value: string) {
  return encrypt(value, secretContext(connection, secret));
}

export function decryptSecret(connection: { orgId: string; id: string }, secret: Secret, value: string) {
  return decrypt(value, secretContext(connection, secret));
}
