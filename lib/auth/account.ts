import { InvalidError } from "@/lib/errors";
import { db } from "@/lib/db";
import { endConsoleSessions } from "./console-sessions";
import { clearFailedSignIns, lockedUntil, recordFailedSignIn } from "./lockout";
import { hashPassword, verifyPassword } from "./passwords";
import { ssoProviderId } from "./sso";

/**
 * A new password for a signed-in user: the current one is required (a session left open on a shared
 * computer is not enough), wrong guesses count towards the sign-in lock-out, and every other session
 * of the user ends, so whoever knew the old password is signed out everywhere.
 */
export async function changePassword(input: {
  userId: string;
  currentSessionId: string;
  currentPassword: string;
  newPassword: string;
}) {
  const prisma = await db();
  const user = await prisma.user.findUniqueOrThrow({ where: { id: input.userId } });
  const field = (message: string) => new InvalidError(message, [{ field: "current_password", message }]);
  if (!user.passwordHash) {
    throw field("This account has no password yet: set one without a current password.");
  }
  if (await lockedUntil(user.email)) throw field("Too many wrong passwords. Try again in 15 minutes.");
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    await recordFailedSignIn(user.email);
    throw field("The current password is not right.");
  }
  await clearFailedSignIns(user.email);
  const passwordHash = await hashPassword(input.newPassword);
  await prisma.user.update({ where: { id: user.id }, data: { passwordHash, signUpPending: false } });
  return { endedSessions: await endConsoleSessions(user.id, input.currentSessionId) };
}

/**
 * A first password for a signed-in account that has none (it signs in with magic links or SSO, or a
 * sign-up was confirmed by a magic link, which drops the password typed into the sign-up form). No
 * current password exists to ask for; the session proves the address. Every other session ends, as
 * for a change.
 */
export async function setPassword(input: { userId: string; currentSessionId: string; newPassword: string }) {
  const prisma = await db();
  const passwordHash = await hashPassword(input.newPassword);
  // Only while there is none: a password set meanwhile (another tab) is changed only with it.
  const { count } = await prisma.user.updateMany({
    where: { id: input.userId, passwordHash: null },
    data: { passwordHash, signUpPending: false },
  });
  if (count === 0) {
    const message = "This account has a password already: change it with the current one.";
    throw new InvalidError(message, [{ field: "new_password", message }]);
  }
  return { endedSessions: await endConsoleSessions(input.userId, input.currentSessionId) };
}

/**
 * The organizations whose single sign-on the user may link from the account page: those they belong
 * to that allow SSO, each with whether their identity is linked already.
 */
export async function ssoLinks(userId: string) {
  const prisma = await db();
  const [memberships, accounts] = await Promise.all([
    prisma.membership.findMany({
      where: { userId, org: { allowSso: true, oidcConnection: { isNot: null } } },
      include: { org: true },
      orderBy: { createdAt: "asc" },
    }),
    prisma.account.findMany({ where: { userId }, select: { provider: true } }),
  ]);
  const linked = new Set(accounts.map((account) => account.provider));
  return memberships.map(({ org }) => {
    const providerId = ssoProviderId(org.id);
    return { orgName: org.name, orgSlug: org.slug, providerId, linked: linked.has(providerId) };
  });
}
