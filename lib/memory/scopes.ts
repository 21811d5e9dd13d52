import { ForbiddenError } from "@/lib/errors";
import type { Scopes } from "@/lib/auth/scopes";

/**
 * The scopes an operation runs under: the key's own pairs, plus the request's. A key with scopes sees
 * only memories carrying all of its pairs and tags what it writes with them; a request may narrow
 * further but never contradict the key (403).
 */
export function effectiveScopes(keyScopes: Scopes, requested: Scopes | undefined): Scopes {
  for (const [name, value] of Object.entries(requested ?? {})) {
    if (name in keyScopes && keyScopes[name] !== value) {
      throw new ForbiddenError(
        `This API key is limited to scope ${name}=${keyScopes[name]}; the request asked for ${name}=${value}.`,
      );
    }
  }
  return { ...requested, ...keyScopes };
}
