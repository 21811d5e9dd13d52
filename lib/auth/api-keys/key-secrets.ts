import { createHmac, randomBytes } from "node:crypto";
import { base58 } from "@/lib/ids";
import { serverSecret } from "@/lib/secrets";

const SECRET_PREFIX = "mgw_";

export function generateKeySecret(): string {
  return SECRET_PREFIX + base58(randomBytes(32));
}

export function hashKeySecret(secret: string): string {
  return createHmac("sha256", serverSecret("KEY_PEPPER")).update(secret).digest("hex");
}

export function displayKeySecret(secret: string): string {
  return `${SECRET_PREFIX}…${secret.slice(-4)}`;
}
