// An invitation's link: a one-time sign-in link for the invited address, valid for
// INVITATION_LINK_LIFETIME_DAYS, mailed to them or copied by an owner or admin from the Members page.
// An invitation has one live link: a new one (copied or mailed) deletes the last, joining or removal too.
import { randomBytes } from "node:crypto";
import { recordAudit, type Actor } from "@/lib/audit/audit";
import { emailTokenHash, magicLinkUrl } from "@/lib/auth/magic-link";
import { setting } from "@/lib/config";
import { db, type Tx } from "@/lib/db";
import { ConflictError, ForbiddenError, notFound } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { assertMayTouchOwners } from "./members";

/**
 * Whether a link that signs in as this person may be shown to someone else (an owner or admin copying it):
 * only while their account is nothing but this invitation — no password, no identity provider, never
 * signed in, a member of this one organization. Otherwise the link would hand its copier whatever else the
 * account reaches (other organizations, a sign-up under way); such a person gets the link by mail only.
 */
export function accountIsInvitationOnly(user: {
  passwordHash: string | null;
  signUpPending: boolean;
  lastSignInAt: Date | null;
  _count: { accounts: number; memberships: number };
}): boolean {
  return (
    user.passwordHash === null &&
    !user.signUpPending &&
    user.lastSignInAt === null &&
    user._count.accounts === 0 &&
    user._count.memberships === 1
  );
}

const INVITEE = {
  user: {
    select: {
      email: true,
      passwordHash: true,
      signUpPending: true,
      lastSignInAt: true,
      _count: { select: { accounts: true, memberships: true } },
    },
  },
  org: { select: { slug: true, name: true } },
} as const;

/**
 * A new link for an invited member who has not joined yet, replacing any earlier one (which stops working).
 * `copied`: it is shown to the owner or admin asking, so the account must be invitation-only (above); a
 * mailed link goes to the address alone. `byRole`: only owners make a link that signs in an invited owner.
 */
export async function issueInvitationLink(
  input: { orgId: string; userId: string; byRole?: Role; copied: boolean },
  actor: Actor,
): Promise<{ url: string; expiresAt: Date; email: string; orgName: string }> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const membership = await tx.membership.findUnique({
      where: { orgId_userId: { orgId: input.orgId, userId: input.userId } },
      include: INVITEE,
    });
    if (!membership) throw notFound(`Member ${input.userId}`);
    const { email } = membership.user;
    if (membership.joinedAt) {
      throw new ConflictError(`${email} has already joined: they sign in from the sign-in page like everyone else.`);
    }
    assertMayTouchOwners(input.byRole, [membership.role]);
    if (input.copied && !accountIsInvitationOnly(membership.user)) {
      throw new ForbiddenError(
        `${email} already has an account (a password, another organization or an earlier sign-in), so a link ` +
          "that signs in as them is never shown to anyone else. Resend the invitation by mail, or ask them to " +
          "sign in as usual: this organization is already in their list.",
      );
    }
    await deleteInvitationToken(tx, membership.invitationTokenHash);
    const token = randomBytes(32).toString("hex");
    const expiresAt = new Date(Date.now() + setting("INVITATION_LINK_LIFETIME_DAYS") * 24 * 60 * 60 * 1000);
    const tokenHash = emailTokenHash(token);
    await tx.verificationToken.create({ data: { identifier: email, token: tokenHash, expires: expiresAt } });
    await tx.membership.update({
      where: { id: membership.id },
      data: { invitationTokenHash: tokenHash, invitationLinkCopied: input.copied },
    });
    await recordAudit(tx, {
      orgId: input.orgId,
      actor,
      action: input.copied ? "member.invitation_link_copy" : "member.invitation_link_mail",
      targetType: "user",
      targetId: input.userId,
      details: { expires_at: expiresAt.toISOString() },
    });
    return {
      url: magicLinkUrl(email, token, `/${membership.org.slug}`),
      expiresAt,
      email,
      orgName: membership.org.name,
    };
  });
}

/** The invitation's outstanding link stops working (a new link, joining, removal). */
export async function deleteInvitationToken(tx: Tx, tokenHash: string | null) {
  if (tokenHash) await tx.verificationToken.deleteMany({ where: { token: tokenHash } });
}

/**
 * Whether a verification token about to be used is a copied invitation link (null: it is not), for which
 * organization, and whether it must no longer sign in: the account has become more than the invitation since
 * it was copied (above). Read before the token is used, since using it deletes it.
 */
export async function copiedInvitationLink(tokenHash: string): Promise<{ orgId: string; refused: boolean } | null> {
  const prisma = await db();
  const membership = await prisma.membership.findUnique({
    where: { invitationTokenHash: tokenHash },
    include: INVITEE,
  });
  if (!membership?.invitationLinkCopied) return null;
  return { orgId: membership.orgId, refused: !accountIsInvitationOnly(membership.user) };
}
