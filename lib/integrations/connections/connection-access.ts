// Connections of a namespace to a provider (this folder: one operation per file): starting the OAuth flow,
// completing it, listing, syncing on demand and deleting with what they brought. The API, the browser
// callback and the console share these.
// A connection is visible to whoever may see its namespace in its organization (namespaceAccess); any
// other id is "not found", whatever organization it belongs to.
import { missingPermissionMessage } from "@/lib/auth/api-keys/api-key-principal";
import { assertPermission, namespaceAccess, type Principal } from "@/lib/auth/principal";

/**
 * Connecting, syncing and disconnecting write and delete memories of the namespace: besides
 * INTEGRATION_MANAGE (the operation's permission), the principal must be allowed to write there.
 */
export function assertMayWrite(principal: Principal) {
  assertPermission(principal, "NAMESPACE_WRITE", () =>
    principal.kind === "api_key" ? missingPermissionMessage(principal, "NAMESPACE_WRITE") : "",
  );
}

export function visibleConnections(principal: Principal) {
  return { orgId: principal.orgId, namespace: namespaceAccess(principal) };
}
