import { z } from "zod";
import { identifier, record } from "@/lib/validation/strings";

/**
 * Scopes: a flat object of string keys to string values, e.g. `{"team": "sales"}`. Both are compared
 * exactly (a key sees only memories carrying its pairs), so both are identifiers.
 */
export const Scopes = record(
  identifier().min(1, "scope keys must not be empty").max(64, "scope keys are at most 64 characters"),
  identifier().min(1, "scope values must not be empty").max(255, "scope values are at most 255 characters"),
);
export type Scopes = z.infer<typeof Scopes>;

/**
 * Scopes as stored (a key's column): read with the shape only, never the input rules, which may have
 * grown stricter since the row was written; a pair refused here would silently widen what the key sees.
 */
const StoredScopes = z.record(z.string(), z.string());

export function parseScopes(value: unknown): Scopes {
  const parsed = StoredScopes.safeParse(value);
  return parsed.success ? parsed.data : {};
}

/**
 * Scopes as people type them, `key=value` pairs: the console's comma-separated field (split before), the
 * command line's repeated `--scope`. Each pair and both sides of its "=" are trimmed, empty pairs skipped;
 * the result is then checked with Scopes. A pair without a key and an "=" is named in the error.
 */
export function parseScopePairs(pairs: readonly string[]): { scopes: Record<string, string> } | { error: string } {
  const scopes: Record<string, string> = {};
  for (const pair of pairs.map((p) => p.trim()).filter(Boolean)) {
    const eq = pair.indexOf("=");
    if (eq <= 0) return { error: `"${pair}" is not of the form key=value` };
    scopes[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return { scopes };
}

/** Scopes as people read and type them: `team=sales, region=eu` (what parseScopeText reads back). */
export function formatScopePairs(scopes: Readonly<Record<string, string>>): string {
  return Object.entries(scopes)
    .map(([name, value]) => `${name}=${value}`)
    .join(", ");
}

/** The console's scopes field, comma-separated `key=value` pairs (see parseScopePairs). */
export function parseScopeText(text: string): ReturnType<typeof parseScopePairs> {
  return parseScopePairs(text.split(","));
}

/**
 * Whether `outer` holds every pair of `inner`: a memory with scopes `outer` is readable by every key that can read
 * one with scopes `inner` (a key reads the memories whose scopes hold all of its own).
 */
export function scopesContain(outer: Readonly<Record<string, string>>, inner: Readonly<Record<string, string>>) {
  return Object.entries(inner).every(([key, value]) => outer[key] === value);
}
