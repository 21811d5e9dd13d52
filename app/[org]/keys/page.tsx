import { KeysPanel } from "@/components/keys-panel";
import { McpClientsTable } from "@/components/mcp-clients-table";
import { ungrantedRefusals } from "@/lib/activity/ungranted-refusals";
import { listApiKeys } from "@/lib/auth/api-keys/list-api-keys";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { memberAccess } from "@/lib/console/session";
import { namespacesForMember } from "@/lib/namespaces/namespaces";
import { listConnections } from "@/lib/oauth/connections";
import type { Metadata } from "next";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage(props: {
  params: Promise<{ org: string }>;
  searchParams: Promise<{ scopes?: string | string[]; generate?: string | string[] }>;
}) {
  const access = await memberAccess((await props.params).org);
  if (!access) return null;
  const { membership } = access;
  const { scopes, generate } = await props.searchParams;
  const admin = membership.role !== "member";
  const [keys, namespaces, clients, refusals] = await Promise.all([
    listApiKeys(membership.orgId),
    namespacesForMember(membership.orgId, membership.userId, membership.role),
    listConnections(membership.orgId, admin ? {} : { userId: membership.userId }),
    ungrantedRefusals(membership.orgId),
  ]);
  // A member sees the names of the namespaces they may use only, also in other keys' grants and refusals.
  const visible = new Set(namespaces.map((ns) => ns.id));
  return (
    <div className="space-y-8">
      <KeysPanel
        orgSlug={membership.org.slug}
        keys={keys.map((key) => ({
          ...key,
          namespaces: key.namespaces.filter((ns) => visible.has(ns.id)),
          hiddenNamespaces: key.namespaces.filter((ns) => !visible.has(ns.id)).length,
          refusals: refusals
            .filter((r) => r.apiKeyId === key.id && visible.has(r.namespaceId))
            .map(({ namespaceId, namespaceName, count }) => ({ namespaceId, namespaceName, count })),
          createdAt: key.createdAt.toISOString(),
          lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
          revokedAt: key.revokedAt?.toISOString() ?? null,
        }))}
        namespaces={namespaces}
        allowedPermissions={[...ROLE_PERMISSIONS[membership.role]]}
        canRevokeAll={membership.role !== "member"}
        canCreateNamespace={membership.role !== "member"}
        currentUserEmail={membership.user.email}
        initialScopes={typeof scopes === "string" ? scopes.slice(0, 2000) : undefined}
        openGenerate={generate !== undefined}
      />
      <McpClientsTable
        orgSlug={membership.org.slug}
        wholeOrganization={admin}
        clients={clients.map((client) => ({
          ...client,
          // A member sees the names of the namespaces they may use only.
          namespace: client.namespace && visible.has(client.namespace.id) ? client.namespace : null,
          connectedAt: client.connectedAt.toISOString(),
          lastUsedAt: client.lastUsedAt?.toISOString() ?? null,
        }))}
      />
    </div>
  );
}
