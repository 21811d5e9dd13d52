import { z } from "zod";

/** Scopes: a flat object of string keys to string values, e.g. `{"team": "sales"}`. */
export const Scopes = z.record(
  z.string().min(1, "scope keys must not be empty").max(64, "scope keys are at most 64 characters"),
  z.string().min(1, "scope values must not be empty").max(255, "scope values are at most 255 characters"),
);
export type Scopes = z.infer<typeof Scopes>;

export function parseScopes(value: unknown): Scopes {
  const parsed = Scopes.safeParse(value);
  return parsed.success ? parsed.data : {};
}
