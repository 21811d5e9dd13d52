import { MembersPanel } from "@/components/members-panel";
import { activeKeysByCreator } from "@/lib/auth/api-keys/active-keys-by-creator";
import { mailConfigured } from "@/lib/auth/mail";
import { requireOrganization } from "@/lib/console/session";
import { listMembers } from "@/lib/orgs/members";
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage({ params }: { params: Promise<{ org: string }> }) {
  const { membership } = await requireOrganization((await params).org);
  const [members, keys] = await Promise.all([listMembers(membership.orgId), activeKeysByCreator(membership.orgId)]);
  return (
    <MembersPanel
      orgSlug={membership.org.slug}
      role={membership.role}
      currentUserId={membership.userId}
      mailConfigured={mailConfigured()}
      members={members.map((m) => ({
        ...m,
        invitedAt: m.invitedAt.toISOString(),
        joinedAt: m.joinedAt?.toISOString() ?? null,
        lastSignInAt: m.lastSignInAt?.toISOString() ?? null,
        keys: keys.get(m.userId) ?? [],
      }))}
    />
  );
}
