import { KeysPanel } from "@/components/keys-panel";
import { listApiKeys } from "@/lib/auth/api-keys";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { requireOrganization } from "@/lib/console/session";
import { namespacesForMember } from "@/lib/namespaces/namespaces";

export default async function KeysPage({ params }: { params: Promise<{ org: string }> }) {
  const { membership } = await requireOrganization((await params).org);
  const [keys, namespaces] = await Promise.all([
    listApiKeys(membership.orgId),
    namespacesForMember(membership.orgId, membership.userId, membership.role),
  ]);
  return (
    <KeysPanel
      orgSlug={membership.org.slug}
      keys={keys.map((key) => ({
        ...key,
        createdAt: key.createdAt.toISOString(),
        lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
        revokedAt: key.revokedAt?.toISOString() ?? null,
      }))}
      namespaces={namespaces}
      allowedPermissions={[...ROLE_PERMISSIONS[membership.role]]}
      canRevokeAll={membership.role !== "member"}
      currentUserEmail={membership.user.email}
    />
  );
}
