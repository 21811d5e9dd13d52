// What signing in to the console reads and writes, for next-auth's providers, adapter and events
// (lib/console/auth.ts): the only part of the sign-in that talks to the database.
import { PrismaAdapter } from "@auth/prisma-adapter";
import type { Adapter, AdapterAccount, AdapterUser } from "next-auth/adapters";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { Email, PersonName } from "@/lib/auth/account-schemas";
import { clearFailedSignIns, lockedUntil, recordFailedSignIn } from "@/lib/auth/lockout";
import { hashPassword, needsRehash, verifyPassword } from "@/lib/auth/passwords";
import { addMember, isMember } from "./members";
import { copiedInvitationLink } from "./invitation-link";
import { rememberLastOrganization, userByEmail } from "./users";

// Verifying against a real hash when the account does not exist keeps both replies equally slow.
let decoyHash: Promise<string> | undefined;

/** Why a password sign-in is refused: next-auth's error code, which the sign-in page explains. */
export type PasswordRefusal = "Locked" | "InvalidCredentials";

/**
 * A sign-in with email and password: the user, or why not. Every failure counts toward the address's
 * lock-out and looks the same (unknown address, no password, wrong password); success clears the count
 * and re-hashes a password stored with older hashing parameters.
 */
export async function signInWithPassword(
  email: string,
  password: string,
): Promise<{ user: { id: string; email: string; name: string | null } } | { refused: PasswordRefusal }> {
  if (await lockedUntil(email)) return { refused: "Locked" };
  const user = await userByEmail(email);
  const passwordHash = user?.passwordHash ?? (await (decoyHash ??= hashPassword("decoy password")));
  const valid = await verifyPassword(passwordHash, password);
  // A sign-up whose address was not confirmed yet fails like a wrong password: whoever filled in the
  // form must not learn from the password working that the address had no account before.
  if (!user?.passwordHash || !valid || user.signUpPending) {
    await recordFailedSignIn(email);
    return { refused: (await lockedUntil(email)) ? "Locked" : "InvalidCredentials" };
  }
  await clearFailedSignIns(email);
  if (needsRehash(user.passwordHash)) {
    const prisma = await db();
    await prisma.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password) } });
  }
  return { user: { id: user.id, email: user.email, name: user.name } };
}

/** Whether an account has this address: a magic link is mailed to, and signs in, existing accounts only. */
export async function accountExists(email: string): Promise<boolean> {
  return (await userByEmail(email)) !== null;
}

/**
 * What a completed sign-in records. A magic link proves the address but not who typed a pending
 * sign-up's password: anyone can sign up with someone else's address. The account is confirmed without
 * that password (it becomes passwordless; /account sets a new one). Only the finish-sign-up page, which
 * asks for the password as well as the mailed token, keeps it (finishSignUp in lib/orgs/sign-up.ts).
 * The first SSO sign-in of an allowed domain joins the organization as a member, and lands there.
 */
export async function recordSignIn(userId: string, how: { magicLink: boolean; ssoOrgId: string | null }) {
  const prisma = await db();
  if (how.magicLink) {
    await prisma.user.updateMany({
      where: { id: userId, signUpPending: true },
      data: { signUpPending: false, passwordHash: null },
    });
  }
  await prisma.user.update({ where: { id: userId }, data: { lastSignInAt: new Date() } });
  if (!how.ssoOrgId) return;
  if (!(await isMember(how.ssoOrgId, userId))) {
    await addMember({ orgId: how.ssoOrgId, userId, role: "member" }, { type: "user", id: userId });
  }
  await rememberLastOrganization(userId, how.ssoOrgId);
}

/**
 * An identity provider's email and name, held to the rules of every other input: an organization's
 * provider can send anything. An email that is not one becomes "" and the sign-in is refused
 * (SsoEmailInvalid); a name that could not be typed into a form (U+0000, a lone surrogate, a bidi
 * override, over 255 characters) is dropped, since the account does not need one.
 */
export function ssoProfileFields(profile: Record<string, unknown>): { email: string; name: string | null } {
  const email = Email.safeParse(profile.email);
  const name = PersonName.safeParse(profile.name);
  return { email: email.success ? email.data : "", name: name.success && name.data ? name.data : null };
}

/** What the sign-in under way learns from the adapter, and asks of it (lib/console/auth.ts). */
export interface SignInHooks {
  /** A copied invitation link of this organization was used (the session is an `invitation_link` one). */
  onCopiedInvitation?: (orgId: string) => void;
  /** Why an identity provider may not be linked to the signed-in account now (null: it may). */
  linkingRefusal?: () => string | null;
}

/** next-auth's Prisma adapter, with our ids, and without the identity provider's tokens (never used). */
export async function consoleAccountsAdapter(hooks: SignInHooks = {}): Promise<Adapter> {
  const prisma = await db();
  const base = PrismaAdapter(prisma as never) as Adapter;
  return {
    ...base,
    // Only SSO creates users through the adapter (a magic link never does): the profile is checked again
    // here, so that nothing unchecked is stored even if a provider's profile() skipped it.
    createUser: async ({ email: rawEmail, name: rawName, emailVerified }: Omit<AdapterUser, "id">) => {
      const { email, name } = ssoProfileFields({ email: rawEmail, name: rawName });
      if (!email) throw new Error("SsoEmailInvalid");
      return prisma.user.create({ data: { id: newId("usr"), email, name, emailVerified } }) as never;
    },
    // A copied invitation link signs in only while the account is still nothing but that invitation.
    useVerificationToken: async (params: { identifier: string; token: string }) => {
      const copied = await copiedInvitationLink(params.token);
      const used = await base.useVerificationToken!(params);
      if (copied?.refused) return null;
      if (copied && used) hooks.onCopiedInvitation?.(copied.orgId);
      return used;
    },
    linkAccount: async (account: AdapterAccount) => {
      const refusal = hooks.linkingRefusal?.();
      if (refusal) throw new Error(refusal);
      const { userId, type, provider, providerAccountId } = account;
      await prisma.account.create({ data: { id: newId("acc"), userId, type, provider, providerAccountId } });
    },
  };
}
