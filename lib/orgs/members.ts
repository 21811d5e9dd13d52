import { ConflictError, ForbiddenError, InvalidError, notFound } from "@/lib/errors";
import { settleKeysOfDepartingMember } from "@/lib/auth/api-keys/settle-keys-of-departing-member";
import { assignableRoles } from "@/lib/auth/permissions";
import { recordAudit, type Actor } from "@/lib/audit/audit";
import { db, type Tx } from "@/lib/db";
import type { Role } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";
import { explainUniqueViolation } from "@/lib/db/unique-violation";

/** `invited`: the member shows as "Invited" until they open the organization (lib/orgs/mark-member-joined.ts). */
export async function addMember(input: { orgId: string; userId: string; role: Role; invited?: boolean }, actor: Actor) {
  const prisma = await db();
  const assertNotMember = async (client: Tx) => {
    const existing = await client.membership.findUnique({
      where: { orgId_userId: { orgId: input.orgId, userId: input.userId } },
    });
    if (existing) {
      throw new ConflictError(
        `User ${input.userId} is already a member (${existing.role}) of organization ${input.orgId}.`,
      );
    }
  };
  const added = prisma.$transaction(async (tx) => {
    await assertNotMember(tx);
    const membership = await tx.membership.create({
      data: {
        id: newId("mbr"),
        orgId: input.orgId,
        userId: input.userId,
        role: input.role,
        ...(input.invited && { joinedAt: null }),
      },
    });
    await recordAudit(tx, {
      orgId: input.orgId,
      actor,
      action: "member.add",
      targetType: "user",
      targetId: input.userId,
      details: { role: input.role },
    });
    return membership;
  });
  // The same person added at once by another request: the unique index refuses this one.
  return added.catch(explainUniqueViolation(() => assertNotMember(prisma)));
}

export async function listMembers(orgId: string) {
  const prisma = await db();
  const memberships = await prisma.membership.findMany({
    where: { orgId },
    include: { user: true },
    orderBy: { createdAt: "asc" },
  });
  return memberships.map((m) => ({
    userId: m.userId,
    email: m.user.email,
    name: m.user.name,
    role: m.role,
    invitedAt: m.createdAt,
    /** Null while invited: they have not opened the organization yet. */
    joinedAt: m.joinedAt,
    lastSignInAt: m.user.lastSignInAt,
  }));
}

/**
 * `byRole`: the role of the console user making the change (absent for the CLI and the system). Only
 * owners make, unmake or remove owners.
 */
export function assertMayTouchOwners(byRole: Role | undefined, roles: Role[]) {
  if (byRole && roles.some((role) => !assignableRoles(byRole).includes(role))) {
    throw new ForbiddenError("Only owners can make someone owner, change an owner's role or remove an owner.");
  }
}

/**
 * Adds the person (creating their account, without a password, if they have none)
 * and returns whether the account is new.
 */
export async function inviteMember(input: { orgId: string; email: string; role: Role; byRole?: Role }, actor: Actor) {
  assertMayTouchOwners(input.byRole, [input.role]);
  const prisma = await db();
  // An account made by another request at the same moment (another invitation, a sign-up) is used, not refused.
  await prisma.user.createMany({ data: [{ id: newId("usr"), email: input.email }], skipDuplicates: true });
  const user = (await prisma.user.findUnique({ where: { email: input.email } }))!;
  await addMember({ orgId: input.orgId, userId: user.id, role: input.role, invited: true }, actor);
  return user;
}

async function assertOwnerRemains(tx: Tx, orgId: string, leaving: string) {
  const owners = await tx.membership.count({ where: { orgId, role: "owner", userId: { not: leaving } } });
  if (owners === 0) throw new ConflictError("An organization needs at least one owner: make someone else owner first.");
}

export async function changeMemberRole(
  input: { orgId: string; userId: string; role: Role; byRole?: Role },
  actor: Actor,
) {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const membership = await tx.membership.findUnique({
      where: { orgId_userId: { orgId: input.orgId, userId: input.userId } },
    });
    if (!membership) throw notFound(`Member ${input.userId}`);
    if (membership.role === input.role) return membership;
    assertMayTouchOwners(input.byRole, [membership.role, input.role]);
    if (membership.role === "owner") await assertOwnerRemains(tx, input.orgId, input.userId);
    const updated = await tx.membership.update({ where: { id: membership.id }, data: { role: input.role } });
    await recordAudit(tx, {
      orgId: input.orgId,
      actor,
      action: "member.role_change",
      targetType: "user",
      targetId: input.userId,
      details: { from: membership.role, to: input.role },
    });
    return updated;
  });
}

/**
 * Takes effect on the member's next request: console pages read membership on every request. The keys
 * they created are revoked, or, with `transferKeysTo` (a remaining member, usually the person removing
 * them), handed over to that member and bounded by their role from then on.
 */
export async function removeMember(
  input: { orgId: string; userId: string; byRole?: Role; transferKeysTo?: string },
  actor: Actor,
) {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const membership = await tx.membership.findUnique({
      where: { orgId_userId: { orgId: input.orgId, userId: input.userId } },
    });
    if (!membership) throw notFound(`Member ${input.userId}`);
    assertMayTouchOwners(input.byRole, [membership.role]);
    if (membership.role === "owner") await assertOwnerRemains(tx, input.orgId, input.userId);
    const { orgId, userId, transferKeysTo } = input;
    if (transferKeysTo !== undefined) await assertMayReceiveKeys(tx, orgId, userId, transferKeysTo);
    // The invitation's link, if one is still out, stops working with the membership.
    if (membership.invitationTokenHash) {
      await tx.verificationToken.deleteMany({ where: { token: membership.invitationTokenHash } });
    }
    await tx.membership.delete({ where: { id: membership.id } });
    await recordAudit(tx, {
      orgId: input.orgId,
      actor,
      action: "member.remove",
      targetType: "user",
      targetId: input.userId,
      details: { role: membership.role },
    });
    return settleKeysOfDepartingMember(tx, { orgId, userId, transferTo: transferKeysTo }, actor);
  });
}

async function assertMayReceiveKeys(tx: Tx, orgId: string, leaving: string, receiver: string) {
  if (receiver === leaving) {
    throw new InvalidError("The keys of a member being removed cannot be handed over to that same member.");
  }
  const membership = await tx.membership.findUnique({ where: { orgId_userId: { orgId, userId: receiver } } });
  if (!membership) {
    throw new InvalidError(`User ${receiver} is not a member of this organization, so cannot take over keys.`);
  }
}

/** A user's membership of the organization with this slug, with the organization and the user; or null. */
export async function membershipBySlug(userId: string, orgSlug: string) {
  const prisma = await db();
  return prisma.membership.findFirst({ where: { userId, org: { slug: orgSlug } }, include: { org: true, user: true } });
}

/** A user's membership of the organization with this id, with the organization; or null. */
export async function membershipById(userId: string, orgId: string) {
  const prisma = await db();
  return prisma.membership.findUnique({ where: { orgId_userId: { orgId, userId } }, include: { org: true } });
}

/** The organizations a user belongs to, the first joined first. */
export async function organizationsOfUser(userId: string) {
  const prisma = await db();
  const memberships = await prisma.membership.findMany({
    where: { userId },
    include: { org: true },
    orderBy: { createdAt: "asc" },
  });
  return memberships.map((m) => ({ id: m.org.id, slug: m.org.slug, name: m.org.name, role: m.role }));
}

/** Whether a user is a member of an organization. */
export async function isMember(orgId: string, userId: string): Promise<boolean> {
  const prisma = await db();
  return (await prisma.membership.findUnique({ where: { orgId_userId: { orgId, userId } } })) !== null;
}
