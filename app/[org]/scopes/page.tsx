import { ScopesPanel } from "@/components/scopes-panel";
import { listApiKeys } from "@/lib/auth/api-keys/list-api-keys";
import { memberAccess } from "@/lib/console/session";
import { scopeUsage } from "@/lib/memory/common/scopes";
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Scopes" };

export default async function ScopesPage({ params }: { params: Promise<{ org: string }> }) {
  const access = await memberAccess((await params).org);
  if (!access) return null;
  const { membership, principal } = access;
  const [pairs, keys] = await Promise.all([scopeUsage(principal), listApiKeys(membership.orgId)]);
  const mayEdit = (key: { createdBy: string | null }) =>
    membership.role !== "member" || key.createdBy === membership.user.email;
  return (
    <ScopesPanel
      orgSlug={membership.org.slug}
      pairs={pairs.map((pair) => ({
        ...pair,
        keys: pair.keys.map((key) => ({ id: key.id, name: key.name, display: key.display })),
      }))}
      keys={keys
        .filter((key) => !key.revokedAt)
        .map((key) => ({
          id: key.id,
          name: key.name,
          display: key.display,
          permissions: key.permissions,
          scopes: key.scopes,
          editable: mayEdit(key),
        }))}
    />
  );
}
