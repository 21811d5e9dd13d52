import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { decrypt, encrypt } from "@/lib/crypto/encryption";

/**
 * A signing secret in the Standard Webhooks form: `whsec_` and 24 random bytes in base64 (what receivers pass to
 * `new Webhook(secret)`).
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** Secrets are stored encrypted, bound to their endpoint: a ciphertext copied to another row does not decrypt. */
const context = (endpoint: { orgId: string; id: string }) => `webhook:${endpoint.orgId}:${endpoint.id}`;

export function encryptWebhookSecret(endpoint: { orgId: string; id: string }, secret: string): string {
  return encrypt(secret, context(endpoint));
}

/**
 * A signing secret is shown in full only once; afterwards its start (`whsec_` and four characters: 24 bits, too
 * few to guess the rest from), to tell secrets apart after a rotation.
 */
export function secretHint(endpoint: { orgId: string; id: string; secretEncrypted: string }): string {
  return `${decrypt(endpoint.secretEncrypted, context(endpoint)).slice(0, 10)}…`;
}

interface StoredSecrets {
  id: string;
  orgId: string;
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * The `webhook-signature` header of a message: the current secret's signature and, while a rotation's overlap
 * lasts, the previous one's too (space-separated, as the specification allows), so that a receiver verifies
 * with either secret.
 */
export function signatures(endpoint: StoredSecrets, messageId: string, timestamp: Date, body: string): string {
  const secrets = [decrypt(endpoint.secretEncrypted, context(endpoint))];
  if (
    endpoint.previousSecretEncrypted &&
    endpoint.previousSecretExpiresAt &&
    endpoint.previousSecretExpiresAt > timestamp
  )
    secrets.push(decrypt(endpoint.previousSecretEncrypted, context(endpoint)));
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(" ");
}

/** The three headers of a Standard Webhooks message. */
export function webhookHeaders(endpoint: StoredSecrets, messageId: string, body: string): Record<string, string> {
  const timestamp = new Date(Math.floor(Date.now() / 1000) * 1000);
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp.getTime() / 1000),
    "webhook-signature": signatures(endpoint, messageId, timestamp, body),
  };
}
