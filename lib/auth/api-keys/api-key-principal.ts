import type { Role } from "@/lib/generated/prisma/enums";
import { ROLE_PERMISSIONS, type Permission } from "../permissions";
import { PERMISSION_LABELS } from "../permissions";
import type { Scopes } from "../scopes";

/** What a request authenticated by an API key acts as. */
export interface ApiKeyPrincipal {
  kind: "api_key";
  orgId: string;
  keyId: string;
  name: string;
  /** What the key may do now: its own permissions, bounded by its creator's current role. */
  permissions: Permission[];
  /** Permissions the key was given that its creator's current role no longer allows. */
  withheld?: { creatorRole: Role; permissions: Permission[] };
  scopes: Scopes;
  /**
   * The member who created the key and their current role; null for operator keys (made on the `memgw`
   * command line). A member's key reaches only the namespaces the member is granted too (see namespaceAccess).
   */
  creator: { userId: string; role: Role } | null;
  /**
   * For a connected MCP client (an OAuth token, lib/oauth/connections.ts): the person who connected it,
   * the identity of the calls that name none.
   */
  defaultIdentityId?: string;
  /** Set for a connected MCP client: refusals name it as the connection it is, not as an API key. */
  connection?: { clientName: string };
}

/**
 * The key's permissions within its creator's current role. Keys without a creator were made by the
 * operator on the `memgw` command line: nothing bounds them but their own list.
 */
export function boundedPermissions(key: {
  permissions: string[];
  creator_role: Role | null;
}): Pick<ApiKeyPrincipal, "permissions" | "withheld"> {
  const permissions = key.permissions as Permission[];
  if (!key.creator_role) return { permissions };
  const allowed = ROLE_PERMISSIONS[key.creator_role];
  const withheld = permissions.filter((permission) => !allowed.includes(permission));
  if (withheld.length === 0) return { permissions };
  return {
    permissions: permissions.filter((permission) => allowed.includes(permission)),
    withheld: { creatorRole: key.creator_role, permissions: withheld },
  };
}

/** Why a key may not do what needs `permission`: it was never given it, or its creator's role no longer allows it. */
export function missingPermissionMessage(key: ApiKeyPrincipal, permission: Permission): string {
  const connection = key.connection;
  if (key.withheld?.permissions.includes(permission)) {
    return connection
      ? `This MCP connection (${connection.clientName}) was given ${permission}, but the person who connected it ` +
          `is now ${key.withheld.creatorRole}, a role that cannot give it.`
      : `This API key was given ${permission}, but the member who created it is now ${key.withheld.creatorRole}, ` +
          `a role whose keys cannot have it.`;
  }
  if (connection) {
    const label = PERMISSION_LABELS[permission];
    const has = key.permissions.map((one) => PERMISSION_LABELS[one]).join(" and ") || "no";
    return (
      `This MCP connection (${connection.clientName}) has ${has} access; this needs ${label} access. ` +
      `Connect the client again and allow ${label} on the consent page.`
    );
  }
  return `This API key lacks the ${permission} permission.`;
}
