import path from "node:path";

// Read on every call (not captured at module load) so that tests and the CLI can point the same
// process at another data directory or port before the database is opened.
/** The project directory: the CLI sets it so that `npx memgw` finds the same data from any working directory. */
export function projectRoot(): string {
  return process.env.MEMGW_ROOT || process.cwd();
}

/** The PGlite data directory (relative paths are taken from the project directory). */
export function dataDir(): string {
  return path.resolve(projectRoot(), process.env.DATA_DIR || ".data");
}

export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

export function port(): number {
  return Number(process.env.PORT || 3000);
}

export function publicUrl(): string {
  return (process.env.PUBLIC_URL || `http://localhost:${port()}`).replace(/\/+$/, "");
}
