import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { migrationsDir } from "@/lib/db/migrate";

/** A short hash of every migration's name and SQL: a template database made from them is named by it. */
export function migrationsFingerprint(): string {
  const hash = createHash("sha256");
  const dir = migrationsDir();
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name, "migration.sql");
    if (fs.existsSync(file)) hash.update(name).update(fs.readFileSync(file));
  }
  return hash.digest("hex").slice(0, 12);
}
