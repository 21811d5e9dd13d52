import type { Actor } from "@/lib/audit/audit";
import type { ApiKeyPrincipal } from "./api-keys";

/** Who is acting. The console adds a user principal; grants and audit entries work for either. */
export type Principal = ApiKeyPrincipal;

export function actorOf(principal: Principal): Actor {
  return { type: "api_key", id: principal.keyId };
}

/** The grant rows that give this principal access to a namespace. */
export function grantsOf(principal: Principal) {
  return { apiKeyId: principal.keyId };
}
