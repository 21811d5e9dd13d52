import { ForbiddenError } from "@/lib/errors";
import { SYSTEM_ACTOR, type Actor } from "@/lib/audit/actor";
import type { Role } from "@/lib/generated/prisma/enums";
import type { ApiKeyPrincipal } from "./api-keys/api-key-principal";
import { namespacesOfMember, PERMISSION_LABELS, ROLE_PERMISSIONS, type Permission } from "./permissions";
import { formatScopePairs, type Scopes } from "./scopes";

/**
 * A person acting in the console: a member of the organization, with what their role allows in the
 * namespaces they may see (namespacesOfMember). The console calls the same domain functions as the API
 * with it, so a person sees and changes exactly what the same rules allow a key.
 */
export interface MemberPrincipal {
  kind: "member";
  orgId: string;
  userId: string;
  role: Role;
  permissions: Permission[];
  /** People are not bound to scopes: always empty (the type matches a key's). */
  scopes: Scopes;
}

/**
 * An integration's sync (lib/integrations/sync.ts): writes and forgets the memories of its connection's
 * documents, in its connection's namespace only, without scopes.
 */
export interface IntegrationPrincipal {
  kind: "integration";
  orgId: string;
  connectionId: string;
  namespaceId: string;
  permissions: Permission[];
  scopes: Scopes;
}

/**
 * A document's processing (lib/documents/ingest-document.ts): writes its passages as memories of its
 * namespace only, with the scopes the document was given. Its embedding is queued as whoever gave it.
 */
export interface DocumentPrincipal {
  kind: "document";
  orgId: string;
  documentId: string;
  namespaceId: string;
  /** The key or member that gave the document, as the embedder's fair share names them. */
  requester: string;
  permissions: Permission[];
  scopes: Scopes;
}

/**
 * A chat model's extraction of facts (lib/memory/inference): writes the facts it derived from memories in their
 * namespace only, with their scopes, and may close only memories readable there within those scopes. Its
 * embedding is queued as whoever wrote the memories.
 */
export interface InferencePrincipal {
  kind: "inference";
  orgId: string;
  namespaceId: string;
  /** The extraction job. */
  jobId: string;
  requester: string;
  permissions: Permission[];
  scopes: Scopes;
}

/**
 * Who is acting: an API key (the API and MCP), a member of the organization (the console), an
 * integration's background sync, a document's processing or a chat model's extraction.
 */
export type Principal =
  ApiKeyPrincipal | MemberPrincipal | IntegrationPrincipal | DocumentPrincipal | InferencePrincipal;

/** Background work of one namespace: a sync, a document's processing, an extraction. */
export function isBackgroundWork(
  principal: Principal,
): principal is IntegrationPrincipal | DocumentPrincipal | InferencePrincipal {
  return principal.kind === "integration" || principal.kind === "document" || principal.kind === "inference";
}

export function integrationPrincipal(connection: { orgId: string; id: string; namespaceId: string }) {
  const principal: IntegrationPrincipal = {
    kind: "integration",
    orgId: connection.orgId,
    connectionId: connection.id,
    namespaceId: connection.namespaceId,
    permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"],
    scopes: {},
  };
  return principal;
}

export function memberPrincipal(member: { orgId: string; userId: string; role: Role }): MemberPrincipal {
  return {
    kind: "member",
    orgId: member.orgId,
    userId: member.userId,
    role: member.role,
    permissions: [...ROLE_PERMISSIONS[member.role]],
    scopes: {},
  };
}

export function actorOf(principal: Principal): Actor {
  if (principal.kind === "member") return { type: "user", id: principal.userId };
  if (isBackgroundWork(principal)) return SYSTEM_ACTOR;
  return { type: "api_key", id: principal.keyId };
}

/** The grant rows that give a key or a member access to a namespace. */
export function grantsOf(principal: ApiKeyPrincipal | MemberPrincipal): { apiKeyId: string } | { userId: string } {
  return principal.kind === "member" ? { userId: principal.userId } : { apiKeyId: principal.keyId };
}

/** Who a principal's work is queued and rate-limited as (the embedder's fair share). */
export function requesterOf(principal: Principal) {
  const requester = {
    member: () => `user:${(principal as MemberPrincipal).userId}`,
    integration: () => `integration:${(principal as IntegrationPrincipal).connectionId}`,
    document: () => (principal as DocumentPrincipal).requester,
    inference: () => (principal as InferencePrincipal).requester,
    api_key: () => (principal as ApiKeyPrincipal).keyId,
  }[principal.kind]();
  return { orgId: principal.orgId, keyId: requester };
}

/**
 * The namespaces a principal may use, as a Prisma filter on namespaces.
 * - A member: every namespace of the organization for owners and admins, those granted to them otherwise.
 * - A key: those of its organization granted to the key and, when the key's creator is now a member, also
 *   granted to that member. A member may only give a key the namespaces granted to them (console key
 *   creation), so a key must not keep a namespace once its creator could no longer grant it: demoted from
 *   owner or admin, or their own grant removed. Owners' and admins' keys, and operator keys (no creator),
 *   reach every namespace granted to the key.
 * Checked in the same query as the namespace itself (an EXISTS more), never a separate round trip.
 */
export function namespaceAccess(principal: Principal) {
  if (principal.kind === "member") return { orgId: principal.orgId, ...namespacesOfMember(principal) };
  if (isBackgroundWork(principal)) {
    return { orgId: principal.orgId, id: principal.namespaceId };
  }
  const { creator } = principal;
  const creatorGrant = creator ? [namespacesOfMember(creator)] : [];
  return { orgId: principal.orgId, AND: [{ grants: { some: grantsOf(principal) } }, ...creatorGrant] };
}

export function hasScopes(principal: Pick<Principal, "scopes">): boolean {
  return Object.keys(principal.scopes).length > 0;
}

/** Refuses what needs `permission` to a principal without it (a key's own message says why it lacks it). */
export function assertPermission(principal: Principal, permission: Permission, missingForKey: () => string) {
  if (principal.permissions.includes(permission)) return;
  if (principal.kind === "integration") throw new ForbiddenError(`An integration's sync may not do this.`);
  if (principal.kind === "document") throw new ForbiddenError(`A document's processing may not do this.`);
  if (principal.kind === "inference") throw new ForbiddenError(`A chat model's extraction may not do this.`);
  throw new ForbiddenError(
    principal.kind === "member"
      ? `This needs ${PERMISSION_LABELS[permission]} access, which the ${principal.role} role does not have.`
      : missingForKey(),
  );
}

/**
 * A key with scopes may change or reveal only memories inside its scopes. Managing a namespace (creating,
 * renaming or deleting it, listing or changing who may use it) reaches every scope's memories and other
 * keys' access, so it is refused to such a key, whatever its permissions.
 */
export function assertNamespaceWideAllowed(principal: Pick<Principal, "scopes">, operation: string) {
  if (!hasScopes(principal)) return;
  const pairs = formatScopePairs(principal.scopes);
  throw new ForbiddenError(
    `This API key is limited to scopes ${pairs}; ${operation} reaches beyond them ` +
      "(every scope's memories, other keys' access), so only a key without scopes may do it.",
  );
}
