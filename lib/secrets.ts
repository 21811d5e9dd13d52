import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir, setting } from "./config";

type SecretName = "KEY_PEPPER" | "ENCRYPTION_KEY" | "NEXTAUTH_SECRET";

/**
 * A server secret from the environment, or — so that a fresh install needs no set-up — one generated
 * once and kept in `DATA_DIR/secrets.json` (outside the database, mode 0600). Deployments with several
 * instances must set the variable so that every instance agrees.
 */
export function serverSecret(name: SecretName): string {
  const fromEnv = setting(name);
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir(), "secrets.json");
  const known = storedSecrets.get(file)?.[name];
  if (known) return known;
  const stored = readSecrets(file);
  if (!stored[name]) {
    stored[name] = randomBytes(32).toString("base64url");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(stored, null, 2) + "\n", { mode: 0o600 });
  }
  storedSecrets.set(file, stored);
  return stored[name];
}

/**
 * The secrets files read so far: a stored secret never changes, and it is asked for with every API key checked
 * and every webhook signed (the file would be read each time).
 */
const storedSecrets = new Map<string, Record<string, string>>();

function readSecrets(file: string): Record<string, string> {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new Error(`Cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
}
