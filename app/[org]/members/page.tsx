import { MembersPanel } from "@/components/members-panel";
import { requireOrganization } from "@/lib/console/session";
import { listMembers } from "@/lib/orgs/members";

export default async function MembersPage({ params }: { params: Promise<{ org: string }> }) {
  const { membership } = await requireOrganization((await params).org);
  const members = await listMembers(membership.orgId);
  return (
    <MembersPanel
      orgSlug={membership.org.slug}
      role={membership.role}
      currentUserId={membership.userId}
      members={members.map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString(), lastSignInAt: m.lastSignInAt?.toISOString() ?? null }))}
    />
  );
}
