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
