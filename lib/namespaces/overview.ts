// What the console shows about namespaces beyond the API's objects: counts, last activity and who may use
// each one. Every function starts from the domain's own visibility check (listNamespaces, getNamespace,
// listGrants), so a namespace the person may not see is not found here either; every query carries the org id.
import { activeKeyWhere } from "@/lib/auth/api-keys/active-keys";
import { boundedPermissions } from "@/lib/auth/api-keys/api-key-principal";
import { ROLE_PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { PERMISSION_LABELS } from "@/lib/auth/permissions";
import type { Principal } from "@/lib/auth/principal";
import { parseScopes, type Scopes } from "@/lib/auth/scopes";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Role } from "@/lib/generated/prisma/enums";
import type { PaginationQuery } from "@/lib/http/pagination";
import { getNamespace, listGrants, listNamespaces, type NamespaceFilter } from "./namespaces";
import { activityWritten } from "@/lib/activity/activity";

/** What a grantee can do in a namespace, in the console's words. */
export type Capability = "read" | "write" | "manage";

const NAMESPACE_PERMISSIONS: [Permission, Capability][] = [
  ["NAMESPACE_READ", "read"],
  ["NAMESPACE_WRITE", "write"],
  ["NAMESPACE_MANAGE", "manage"],
];

function capabilities(permissions: readonly Permission[]): Capability[] {
  return NAMESPACE_PERMISSIONS.filter(([permission]) => permissions.includes(permission)).map(([, word]) => word);
}

export interface NamespaceStats {
  memoryCount: number;
  grantCount: number;
  lastActivityAt: Date | null;
}

/**
 * One page of the namespaces a principal may see, with each one's memory and grant counts and latest
 * activity. The counts are one statement for the page (subqueries per namespace on indexed columns), so
 * the page costs the same whatever the organization's size.
 */
export async function listNamespacesWithStats(principal: Principal, query: PaginationQuery, filter: NamespaceFilter) {
  const { items, total } = await listNamespaces(principal, query, filter);
  const stats = await statsOf(
    principal.orgId,
    items.map((namespace) => namespace.id),
  );
  const none: NamespaceStats = { memoryCount: 0, grantCount: 0, lastActivityAt: null };
  return { items: items.map((namespace) => ({ ...namespace, ...(stats.get(namespace.id) ?? none) })), total };
}

async function statsOf(orgId: string, namespaceIds: string[]): Promise<Map<string, NamespaceStats>> {
  await activityWritten();
  if (namespaceIds.length === 0) return new Map();
  const prisma = await db();
  // The namespace row is bounded by the organization; its memories, grants and activity hang off it.
  const rows = await prisma.$queryRaw<
    { id: string; memories: number; grants: number; last_activity: Date | string | null }[]
  >(
    Prisma.sql`SELECT n.id,
            (SELECT count(*)::int FROM memories m
             WHERE m.namespace_id = n.id AND (m.expires_at IS NULL OR m.expires_at > now())) AS memories,
            (SELECT count(*)::int FROM namespace_grants g
             WHERE g.namespace_id = n.id AND g.org_id = n.org_id) AS grants,
            (SELECT max(a.created_at) FROM activity_logs a
             WHERE a.org_id = n.org_id AND a.namespace_id = n.id) AS last_activity
     FROM namespaces n
     WHERE n.org_id = ${orgId} AND n.id = ANY(${namespaceIds}::text[])`,
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        memoryCount: row.memories,
        grantCount: row.grants,
        lastActivityAt: row.last_activity === null ? null : new Date(row.last_activity),
      },
    ]),
  );
}

/** The namespace (or not found, as for the API), its memory count and how many identities its memories are about. */
export async function namespaceOverview(principal: Principal, namespaceId: string) {
  const namespace = await getNamespace(principal, namespaceId);
  const prisma = await db();
  const [counts] = await prisma.$queryRaw<{ memories: number; identities: number }[]>(
    Prisma.sql`SELECT count(*)::int AS memories, count(DISTINCT m.identity_id)::int AS identities
     FROM memories m
     WHERE m.org_id = ${principal.orgId} AND m.namespace_id = ${namespace.id}
       AND (m.expires_at IS NULL OR m.expires_at > now())`,
  );
  return { namespace, memoryCount: counts?.memories ?? 0, identityCount: counts?.identities ?? 0 };
}

/** One grant of a namespace as the permissions panel shows it. */
export type GranteeRow = {
  grantId: string;
  grantedAt: Date;
  /** What the grantee can do in this namespace now (empty when the grant gives nothing). */
  can: Capability[];
  /** Why the grant gives nothing now, when it does not. */
  inactive: string | null;
  /** Anything else worth knowing about this grant. */
  note: string | null;
} & (
  | {
      kind: "api_key";
      key: {
        id: string;
        name: string;
        display: string;
        /** The key's own permissions, in the console's words. */
        permissions: string[];
        scopes: Scopes;
        lastUsedAt: Date | null;
        /**
         * Set when the key stands for a connected MCP client (an OAuth connection, lib/oauth): the client's
         * name is the key's; who connected it and when tell apart two connections of clients of one name.
         */
        connection: { connectedBy: string | null; connectedAt: Date } | null;
      };
    }
  | { kind: "user"; user: { id: string; name: string | null; email: string; role: Role | null } }
);

/**
 * Every grant of a namespace with who holds it and what that grantee can do here, by the rules that
 * authentication applies (namespaceAccess, boundedPermissions): a key within its creator's current role,
 * and only while its creator may still use the namespace; a member by their role.
 */
export async function namespaceGrantees(principal: Principal, namespaceId: string): Promise<GranteeRow[]> {
  const grants = await listGrants(principal, namespaceId);
  const orgId = principal.orgId;
  const keyIds = grants.flatMap((grant) => (grant.apiKeyId ? [grant.apiKeyId] : []));
  const userIds = grants.flatMap((grant) => (grant.userId ? [grant.userId] : []));
  const prisma = await db();
  // An ended MCP connection (revoked, or replaced when its person connected the client again) is gone for
  // good, unlike a revoked API key kept for the record: its grant is not listed beside the standing one.
  const keys = await prisma.apiKey.findMany({
    where: { orgId, id: { in: keyIds }, NOT: { oauthClientId: { not: null }, revokedAt: { not: null } } },
  });
  const creatorIds = keys.flatMap((key) => (key.createdById ? [key.createdById] : []));
  const memberships = await prisma.membership.findMany({
    where: { orgId, userId: { in: [...new Set([...userIds, ...creatorIds])] } },
    include: { user: { select: { id: true, name: true, email: true } } },
  });
  const users = await prisma.user.findMany({
    where: { id: { in: userIds }, grants: { some: { orgId, namespaceId } } },
    select: { id: true, name: true, email: true },
  });
  const memberOf = new Map(memberships.map((membership) => [membership.userId, membership]));
  const keyOf = new Map(keys.map((key) => [key.id, key]));
  const userOf = new Map(users.map((user) => [user.id, user]));
  const grantedUsers = new Set(userIds);

  return grants.flatMap((grant): GranteeRow[] => {
    const base = { grantId: grant.id, grantedAt: grant.createdAt };
    if (grant.apiKeyId) {
      const key = keyOf.get(grant.apiKeyId);
      if (!key) return [];
      const creator = key.createdById ? (memberOf.get(key.createdById) ?? null) : null;
      const permissions = key.permissions as Permission[];
      const bounded = boundedPermissions({ permissions, creator_role: creator?.role ?? null });
      const scopes = parseScopes(key.scopes);
      const inactive = keyInactive(key, creator, grantedUsers);
      const withheld = bounded.withheld
        ? `Its creator is now ${bounded.withheld.creatorRole}: ` +
          `${bounded.withheld.permissions.map((p) => PERMISSION_LABELS[p]).join(", ")} withheld.`
        : null;
      const scoped = Object.keys(scopes).length > 0 ? "Only memories within its scopes." : null;
      return [
        {
          ...base,
          kind: "api_key",
          key: {
            id: key.id,
            name: key.name,
            display: key.display,
            permissions: permissions.map((permission) => PERMISSION_LABELS[permission] ?? permission),
            scopes,
            lastUsedAt: key.lastUsedAt,
            connection: key.oauthClientId
              ? { connectedBy: creator?.user.email ?? null, connectedAt: key.createdAt }
              : null,
          },
          can: inactive ? [] : capabilities(bounded.permissions),
          inactive,
          note: [withheld, scoped].filter(Boolean).join(" ") || null,
        },
      ];
    }
    const user = grant.userId ? userOf.get(grant.userId) : undefined;
    if (!user) return [];
    const role = memberOf.get(user.id)?.role ?? null;
    return [
      {
        ...base,
        kind: "user",
        user: { ...user, role },
        can: role ? capabilities(ROLE_PERMISSIONS[role]) : [],
        inactive: role ? null : "No longer a member of this organization.",
        note:
          role && role !== "member"
            ? `As ${role}, they see every namespace of the organization; this grant counts if they become a member.`
            : null,
      },
    ];
  });
}

/** Why a key's grant gives nothing now (authentication would refuse the key, or not reach this namespace). */
function keyInactive(
  key: { revokedAt: Date | null; expiresAt: Date | null; createdById: string | null; oauthClientId: string | null },
  creator: { role: Role; user: { email: string } } | null,
  grantedUsers: Set<string>,
): string | null {
  // A connected MCP client acts for the person who connected it, as a key for its creator.
  const [what, who] = key.oauthClientId ? ["connection", "the person who connected it"] : ["key", "its creator"];
  if (key.revokedAt) return `The ${what} is revoked.`;
  if (key.expiresAt && key.expiresAt <= new Date()) return `The ${what} has expired.`;
  if (key.createdById && !creator) return `${capitalized(who)} is no longer a member of this organization.`;
  if (creator?.role === "member" && !grantedUsers.has(key.createdById!)) {
    return (
      `${capitalized(who)}, ${creator.user.email}, has no access to this namespace: ` +
      `a ${what} reaches only what ${who} may.`
    );
  }
  return null;
}

function capitalized(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The organization's keys a namespace may be granted to: active, and not a connected MCP client's. */
const grantableKeyWhere = (orgId: string) => ({
  orgId,
  // A connected MCP client reaches only the namespace its person approved.
  oauthClientId: null,
  ...activeKeyWhere(),
});

const KEY_CHOICE = {
  select: { id: true, name: true, display: true },
  orderBy: [{ name: "asc" as const }, { id: "asc" as const }],
};

/**
 * The keys a new namespace may be granted to as it is created (the console's create dialog): `{id, name,
 * display}` by name. For the people who create namespaces; `orgId` is theirs.
 */
export async function grantableKeys(orgId: string) {
  const prisma = await db();
  return prisma.apiKey.findMany({ where: grantableKeyWhere(orgId), ...KEY_CHOICE });
}

/**
 * Who may still be granted a namespace: active keys and members of the organization without a grant to
 * it. For the people who manage grants (the page asks only for them).
 */
export async function grantCandidates(principal: Principal, namespaceId: string) {
  const namespace = await getNamespace(principal, namespaceId);
  const orgId = principal.orgId;
  const prisma = await db();
  const [keys, members] = await Promise.all([
    prisma.apiKey.findMany({
      where: { ...grantableKeyWhere(orgId), grants: { none: { namespaceId: namespace.id } } },
      ...KEY_CHOICE,
    }),
    prisma.membership.findMany({
      where: { orgId, user: { grants: { none: { orgId, namespaceId: namespace.id } } } },
      select: { role: true, user: { select: { id: true, name: true, email: true } } },
      orderBy: { user: { email: "asc" } },
    }),
  ]);
  return {
    keys,
    members: members.map((member) => ({ ...member.user, role: member.role })),
  };
}
