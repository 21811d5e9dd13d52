// The settings (declared in ./settings.ts), read from the environment. The server (lib/startup.ts) and the
// CLI (lib/admin/cli.ts) check them all before anything else and stop with every wrong one listed.
import path from "node:path";
import type { z } from "zod";
import { type SettingDefinition, SETTINGS } from "./settings";

export { INTEGRATION_SETTINGS_PREFIXES, type IntegrationSettingsPrefix, type ProxyEntry } from "./settings";
export type { SettingDefinition };

/** Where a setting's value comes from: `process.env`, or another environment (a test, the benchmark's). */
export type SettingsSource = Record<string, string | undefined>;

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<N extends SettingName> = z.output<(typeof SETTINGS)[N]["schema"]>;

/** The declarations, in their order, for the documentation and the tests. */
export const SETTING_DEFINITIONS: Readonly<Record<SettingName, SettingDefinition<unknown>>> = SETTINGS;

/** Settings that cannot be used as they are, each named with what it takes. */
export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(
      problems.length === 1
        ? problems[0]
        : `${problems.length} settings are wrong:\n${problems.map((problem) => `  ${problem}`).join("\n")}`,
    );
    this.name = "SettingsError";
  }
}

type Parsed = { ok: true; value: unknown } | { ok: false; problem: string };

function present(raw: string | undefined): string | undefined {
  return raw === undefined || raw.trim() === "" ? undefined : raw;
}

function parse(name: SettingName, raw: string | undefined): Parsed {
  const definition = SETTING_DEFINITIONS[name];
  const shown = JSON.stringify((raw ?? "").slice(0, 80));
  const result = definition.schema.safeParse(raw, { error: () => `${definition.refusal}, not ${shown}.` });
  if (result.success) return { ok: true, value: result.data };
  const message = result.error.issues[0].message;
  return { ok: false, problem: `${name}${message.startsWith(":") ? "" : " "}${message}` };
}

/**
 * Parsed values by the text they were parsed from: read on every call, so that a test or the CLI may change
 * the environment at any time, and parsed only when the text changed (a value keeps its identity).
 */
const parsedValues = new Map<SettingName, { raw: string | undefined; value: unknown }>();

/** A setting's value, from `process.env` unless another environment is given; throws SettingsError when wrong. */
export function setting<N extends SettingName>(name: N, env: SettingsSource = process.env): SettingValue<N> {
  const raw = present(env[name]);
  const cached = parsedValues.get(name);
  if (cached && cached.raw === raw) return cached.value as SettingValue<N>;
  const parsed = parse(name, raw);
  if (!parsed.ok) throw new SettingsError([parsed.problem]);
  parsedValues.set(name, { raw, value: parsed.value });
  return parsed.value as SettingValue<N>;
}

/** Everything wrong with the settings, one line each (nothing when all are right). */
export function settingsProblems(env: SettingsSource = process.env): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(SETTING_DEFINITIONS) as SettingName[]) {
    const parsed = parse(name, present(env[name]));
    if (!parsed.ok) problems.push(parsed.problem);
  }
  // Whether the two settings go together is asked only once each reads.
  const poolingRead = !problems.some((problem) => /^DATABASE_(POOLER|DIRECT_URL) /.test(problem));
  const pooling = poolingRead && present(env.DATABASE_URL) && databasePoolingProblem(env);
  if (pooling) problems.push(pooling);
  const workers = ["DOCUMENT_WORKERS", "DOCUMENT_WORKERS_PER_ORG", "DOCUMENT_EXTRACTION_CONCURRENCY"];
  if (!problems.some((problem) => workers.some((name) => problem.startsWith(`${name} `))))
    problems.push(...documentWorkersProblems(env));
  return problems;
}

/** Stops a start on wrong settings, listing every one. */
export function checkSettings(env: SettingsSource = process.env): void {
  const problems = settingsProblems(env);
  if (problems.length) throw new SettingsError(problems);
}

function databasePoolingProblem(env: SettingsSource): string | undefined {
  if (setting("DATABASE_POOLER", env) !== "transaction" || setting("DATABASE_DIRECT_URL", env)) return undefined;
  return (
    "DATABASE_POOLER=transaction needs DATABASE_DIRECT_URL: the migrations take a session lock, which a " +
    "pooler in transaction mode cannot keep. Point it at PostgreSQL itself (see docs/deployment.md)."
  );
}

/**
 * Document worker settings that would make a worker's document wait for another's: fewer extraction turns than
 * workers (the document would wait in the process's extraction limiter behind another organization's).
 */
function documentWorkersProblems(env: SettingsSource): string[] {
  const workers = setting("DOCUMENT_WORKERS", env);
  const extractions = setting("DOCUMENT_EXTRACTION_CONCURRENCY", env);
  if (extractions >= workers) return [];
  return [
    `DOCUMENT_EXTRACTION_CONCURRENCY (${extractions}) must be at least DOCUMENT_WORKERS (${workers}): a ` +
      "worker's document would wait for another's extraction to end, whichever organization's it is.",
  ];
}

/**
 * Settings that start but that an operator should know about, one line each: a cap per organization that leaves
 * one instance no document worker for the others. Not refused: the cap counts across instances while the
 * workers are this instance's (three instances of 2 workers with a cap of 2 are fair), and a server with one
 * organization may give it every worker.
 */
export function settingsWarnings(env: SettingsSource = process.env): string[] {
  if (settingsProblems(env).length) return [];
  const workers = setting("DOCUMENT_WORKERS", env);
  const perOrg = setting("DOCUMENT_WORKERS_PER_ORG", env);
  if (perOrg < workers || workers === 1) return [];
  return [
    `DOCUMENT_WORKERS_PER_ORG (${perOrg}) is not below DOCUMENT_WORKERS (${workers}): on this instance alone, ` +
      "one organization's documents can take every document worker and another's wait behind its queue.",
  ];
}

/** How PostgreSQL is reached: through a transaction-mode pooler (migrations then go to `directUrl`) or not. */
export function databasePooling(): { pooled: boolean; directUrl?: string } {
  const problem = databasePoolingProblem(process.env);
  if (problem) throw new SettingsError([problem]);
  return { pooled: setting("DATABASE_POOLER") === "transaction", directUrl: setting("DATABASE_DIRECT_URL") };
}

/**
 * Gives this process `value` for a setting its environment leaves unset (absent or blank, as `setting` reads
 * them): the CLI's smaller page cache for a command of a few rows. The value is checked when the setting is read.
 */
export function defaultSetting(name: SettingName, value: string): void {
  if (present(process.env[name]) === undefined) process.env[name] = value;
}

/** The project directory: the CLI sets it so that `npx memgw` finds the same data from any working directory. */
export function projectRoot(): string {
  return setting("MEMGW_ROOT") || process.cwd();
}

/**
 * Names what this process is (MEMGW_PROCESS_ROLE, as the data directory's lock names its holder), unless its
 * environment named it already (a test, the benchmark).
 */
export function nameProcessRole(role: string): void {
  process.env.MEMGW_PROCESS_ROLE ??= role;
}

/** next-auth reads NEXTAUTH_URL itself: when it is not set, it is set to the gateway's public address. */
export function defaultNextAuthUrl(): void {
  if (!setting("NEXTAUTH_URL")) process.env.NEXTAUTH_URL = publicUrl();
}

/** The PGlite data directory (relative paths are taken from the project directory). */
export function dataDir(): string {
  return path.resolve(projectRoot(), setting("DATA_DIR") || ".data");
}

export function databaseUrl(): string | undefined {
  return setting("DATABASE_URL");
}

export function port(): number {
  return setting("PORT");
}

export function publicUrl(): string {
  return (setting("PUBLIC_URL") || `http://localhost:${port()}`).replace(/\/+$/, "");
}
