import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { setting } from "@/lib/config";
import { serverSecret } from "@/lib/secrets";

const FORMAT = "v1";

interface EncryptionKey {
  id: string;
  key: Buffer;
}

function toKey(secret: string): EncryptionKey {
  // Any string works as a secret: the AES key is its SHA-256, the key id the first bytes of another hash.
  const key = createHash("sha256").update(secret).digest();
  return { id: createHash("sha256").update(key).digest("hex").slice(0, 8), key };
}

/**
 * The key new ciphertexts use, then retired ones still accepted for decryption
 * (ENCRYPTION_KEYS_RETIRED, comma-separated).
 */
function keys(): EncryptionKey[] {
  return [serverSecret("ENCRYPTION_KEY"), ...setting("ENCRYPTION_KEYS_RETIRED")].map(toKey);
}

/**
 * AES-256-GCM with a random 96-bit IV. `context` (e.g. organization and row id) is bound as associated
 * data: a ciphertext copied to another row or organization does not decrypt.
 */
export function encrypt(plaintext: string, context: string): string {
  const [current] = keys();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", current.key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return [FORMAT, current.id, iv.toString("base64url"), body.toString("base64url")].join(":");
}

export function decrypt(ciphertext: string, context: string): string {
  const [format, keyId, iv, body] = ciphertext.split(":");
  const key = keys().find((candidate) => candidate.id === keyId);
  if (format !== FORMAT || !key || !iv || !body) throw new Error(`Cannot decrypt: unknown format or key ${keyId}.`);
  const data = Buffer.from(body, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key.key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString("utf8");
}
