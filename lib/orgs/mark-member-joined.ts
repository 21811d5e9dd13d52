import { db } from "@/lib/db";
import { deleteInvitationToken } from "./invitation-link";

/**
 * The member opened the organization: no longer "Invited". Any link still out for the invitation stops
 * working, so a copied one cannot sign in later as an account that by then reaches more.
 */
export async function markMemberJoined(orgId: string, userId: string): Promise<void> {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const membership = await tx.membership.findUnique({ where: { orgId_userId: { orgId, userId } } });
    if (!membership || membership.joinedAt) return;
    await deleteInvitationToken(tx, membership.invitationTokenHash);
    await tx.membership.update({
      where: { id: membership.id },
      data: { joinedAt: new Date(), invitationTokenHash: null, invitationLinkCopied: false },
    });
  });
}
