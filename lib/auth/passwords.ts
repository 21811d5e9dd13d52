import { hash, verify } from "@node-rs/argon2";

// argon2id with OWASP's recommended minimum (docs/decisions.md): m = 19 MiB, t = 2, p = 1.
const ARGON2ID = 2;
export const PASSWORD_HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_OPTIONS);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password);
}

/** True when a stored hash was made with other parameters than today's, so it should be redone at login. */
export function needsRehash(passwordHash: string): boolean {
  const o = PASSWORD_HASH_OPTIONS;
  return !passwordHash.startsWith(`$argon2id$v=19$m=${o.memoryCost},t=${o.timeCost},p=${o.parallelism}$`);
}
