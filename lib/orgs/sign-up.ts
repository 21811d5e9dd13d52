import { ConflictError, ForbiddenError, InvalidError, RateLimitedError } from "@/lib/errors";
import { clearFailedSignIns, lockedUntil, recordFailedSignIn } from "@/lib/auth/lockout";
import { consumeEmailToken, createEmailToken, emailTokenValid } from "@/lib/auth/magic-link";
import { escapeHtml, sendMail } from "@/lib/auth/mail";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { rateLimitMessage, SIGN_IN_RULES, signUpRulePerAddress } from "@/lib/auth/sign-in-limits";
import { publicUrl, setting } from "@/lib/config";
import { db } from "@/lib/db";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { rateLimitAddress } from "@/lib/net/client-address";
import { firstRefusal } from "@/lib/rate-limit/limiter";
import { addMember } from "./members";
import { createOrganization } from "./organizations";
import type { z } from "zod";
import type { FinishSignUpForm, SignUpForm } from "./schemas";
import { createUser } from "./users";

export function signUpAllowed(): boolean {
  return setting("ALLOW_SIGNUP");
}

export interface SignUpResult {
  /**
   * True only for the very first account of a server that has none: it is ready at once and the form
   * signs in with its password. Every other sign-up is finished from the mailed link.
   */
  ready: boolean;
}

/**
 * A sign-up, answered the same whether or not the address already has an account, so the form cannot
 * tell who uses the gateway:
 * - a new address gets its account and a new organization it owns, with the password not usable until
 *   it is entered again on the page the mailed link opens (finishSignUp): the link proves the address,
 *   the password proves that whoever holds the address also filled in the form;
 * - an address that has an account gets a mail saying so, and nothing changes.
 * The first account of an empty server is the exception (no account exists, so nothing can be learnt):
 * it is ready at once, so that a fresh `npm start` without mail set up can be used right away.
 * Counted per client address and per email like sign-in.
 */
export async function signUp(
  input: z.infer<typeof SignUpForm>,
  client: { clientAddress: string },
): Promise<SignUpResult> {
  if (!signUpAllowed()) {
    throw new ForbiddenError("Sign-up is turned off on this server. Ask an administrator for an invitation.");
  }
  const refused = await firstRefusal([
    [signUpRulePerAddress(), rateLimitAddress(client.clientAddress)],
    [SIGN_IN_RULES.signUpPerEmail, input.email],
  ]);
  if (refused) {
    throw new RateLimitedError(rateLimitMessage(refused), refused.resetSeconds);
  }

  const prisma = await db();
  if ((await prisma.user.count()) === 0) {
    // Sign-ups at once may all find the server empty: the database gives the first account's place to one,
    // and the others are finished from the mailed link like any later sign-up.
    if (await createAccount(input, { pending: false })) return { ready: true };
  }
  const existing = await prisma.user.findUnique({ where: { email: input.email } });
  // An existing account is as slow to answer as a new one (which hashes the password).
  const created = existing
    ? await hashPassword(input.password).then(() => null)
    : await createAccount(input, { pending: true });
  if (!created) {
    await sendMail(alreadyRegisteredMail(input.email));
    return { ready: false };
  }
  const token = await createEmailToken(input.email);
  const link = `${publicUrl()}/sign-up/finish?${new URLSearchParams({ token, email: input.email })}`;
  await sendMail(finishSignUpMail(input.email, created.org.name, link));
  return { ready: false };
}

/**
 * Finishes a sign-up from the mailed link's page: the pending password becomes usable only for whoever
 * both holds the link (owns the address) and knows the password (filled in the form). Either alone is
 * not enough: someone else may have signed up with the address, and a magic link of any other kind
 * makes a pending account passwordless instead (events.signIn in lib/console/auth.ts).
 * Wrong passwords count towards the sign-in lock-out; the token is used up only by the right one, so
 * a typo does not cost the link. The caller then signs in with the same email and password.
 */
export async function finishSignUp(input: z.infer<typeof FinishSignUpForm>): Promise<void> {
  const { email, token, password } = input;
  const expired = new InvalidError(
    "This link has expired or was already used. Sign in with a magic link from the sign-in page instead; " +
      "you can then set a password on your account page.",
  );
  const wrongPassword = (message: string) => new InvalidError(message, [{ field: "password", message }]);
  if (!(await emailTokenValid(email, token))) throw expired;
  if (await lockedUntil(email)) throw wrongPassword("Too many wrong passwords. Try again in 15 minutes.");
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { email } });
  if (!user?.signUpPending || !user.passwordHash) {
    throw new InvalidError("This sign-up is already finished. Sign in from the sign-in page.");
  }
  if (!(await verifyPassword(user.passwordHash, password))) {
    await recordFailedSignIn(email);
    const locked = await lockedUntil(email);
    throw wrongPassword(
      locked ? "Too many wrong passwords. Try again in 15 minutes." : "That is not the password chosen at sign-up.",
    );
  }
  // Two tabs submitting at once: only the one that uses the token up confirms the account.
  if (!(await consumeEmailToken(email, token))) throw expired;
  await prisma.user.updateMany({ where: { id: user.id, signUpPending: true }, data: { signUpPending: false } });
  await clearFailedSignIns(email);
}

async function createAccount(input: z.infer<typeof SignUpForm>, options: { pending: boolean }) {
  const user = await createUser({
    email: input.email,
    password: input.password,
    signUpPending: options.pending,
    firstAccount: !options.pending,
  }).catch((error) => {
    // Two sign-ups of one address at the same moment: the second is answered like any existing address.
    // The first account's place taken by another sign-up (a unique violation): this one is an ordinary one.
    if (error instanceof ConflictError || isUniqueViolation(error)) return null;
    throw error;
  });
  if (!user) return null;
  const actor = { type: "user", id: user.id } as const;
  const org = await createOrganization(input.organization, actor);
  await addMember({ orgId: org.id, userId: user.id, role: "owner" }, actor);
  const prisma = await db();
  await prisma.user.update({ where: { id: user.id }, data: { lastOrgId: org.id } });
  return { user, org };
}

function finishSignUpMail(to: string, orgName: string, link: string) {
  const asks = "The link asks for the password you chose when signing up.";
  const expiry =
    "It works once, within 10 minutes. After that (or if you forgot the password), sign in with a magic link " +
    "from the sign-in page and set a password on your account page.";
  const ignore =
    "If you did not sign up, ignore this email: the password that was entered does not work without this link.";
  const ready = (name: string) => `Your Memory Gateway account and the organization ${name} are ready.`;
  return {
    to,
    subject: "Finish signing up to Memory Gateway",
    text: `${ready(orgName)} Finish signing up:\n${link}\n\n${asks} ${expiry}\n\n${ignore}`,
    html:
      `<p>${ready(escapeHtml(orgName))}</p><p><a href="${link}">Finish signing up</a></p>` +
      `<p>${asks} ${expiry}</p><p>${ignore}</p>`,
  };
}

function alreadyRegisteredMail(to: string) {
  const signIn = `${publicUrl()}/sign-in`;
  const magicLink = `${publicUrl()}/sign-in?method=magic_link`;
  const text =
    "Someone tried to sign up to Memory Gateway with this address, which already has an account. Nothing was changed.";
  const notYou = "If it was not you, ignore this email.";
  return {
    to,
    subject: "You already have a Memory Gateway account",
    text: `${text}\n\nSign in: ${signIn}\nForgot your password? Ask for a sign-in link: ${magicLink}\n\n${notYou}`,
    html:
      `<p>${text}</p><p><a href="${signIn}">Sign in</a> · <a href="${magicLink}">Email me a sign-in link</a></p>` +
      `<p>${notYou}</p>`,
  };
}
