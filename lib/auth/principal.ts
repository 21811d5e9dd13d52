import { ForbiddenError } from "@/lib/errors";
import type { Actor } from "@/lib/audit/audit";
import type { ApiKeyPrincipal } from "./api-keys";
import { namespacesOfMember } from "./permissions";

/** Who is acting on the API and MCP: an API key. Console users act through lib/console, audited as a user Actor. */
export type Principal = ApiKeyPrincipal;

export function actorOf(principal: Principal): Actor {
  return { type: "api_key", id: principal.keyId };
}

/** The grant rows that give this principal access to a namespace. */
export function grantsOf(principal: Pick<Principal, "keyId">) {
  return { apiKeyId: principal.keyId };
}

/**
 * The namespaces a principal may use, as a Prisma filter on namespaces: those of its organization granted
 * to the key and, when the key's creator is now a member, also granted to that member. A member may only
 * give a key the namespaces granted to them (console key creation), so a key must not keep a namespace
 * once its creator could no longer grant it: demoted from owner or admin, or their own grant removed.
 * Owners' and admins' keys, and operator keys (no creator), reach every namespace granted to the key.
 * Checked in the same query as the namespace itself (an EXISTS more), never a separate round trip.
 */
export function namespaceAccess(principal: Pick<Principal, "orgId" | "keyId" | "creator">) {
  const { creator } = principal;
  const creatorGrant = creator ? [namespacesOfMember(creator)] : [];
  return { orgId: principal.orgId, AND: [{ grants: { some: grantsOf(principal) } }, ...creatorGrant] };
}

export function hasScopes(principal: Pick<Principal, "scopes">): boolean {
  return Object.keys(principal.scopes).length > 0;
}

/**
 * A key with scopes may change or reveal only memories inside its scopes. Managing a namespace (creating,
 * renaming or deleting it, listing or changing who may use it) reaches every scope's memories and other
 * keys' access, so it is refused to such a key, whatever its permissions.
 */
export function assertNamespaceWideAllowed(principal: Pick<Principal, "scopes">, operation: string) {
  if (!hasScopes(principal)) return;
  const pairs = Object.entries(principal.scopes)
    .map(([name, value]) => `${name}=${value}`)
    .join(", ");
  throw new ForbiddenError(
    `This API key is limited to scopes ${pairs}; ${operation} reaches beyond them ` +
      "(every scope's memories, other keys' access), so only a key without scopes may do it.",
  );
}
