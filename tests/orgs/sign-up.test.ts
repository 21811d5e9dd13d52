// Sign-up (issue 12, item 14): the same answer for a new and an existing address, the password of an
// unconfirmed sign-up does not sign in, and sign-up is rate limited like sign-in.
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { setPassword } from "@/lib/auth/account";
import { authOptions } from "@/lib/console/auth";
import { startConsoleSession } from "@/lib/auth/console-sessions";
import { lockedUntil } from "@/lib/auth/lockout";
import { signUpRulePerAddress } from "@/lib/auth/sign-in-limits";
import { createMagicLink } from "@/lib/auth/magic-link";
import { verifyPassword } from "@/lib/auth/passwords";
import { db } from "@/lib/db";
import { finishSignUp, signUp } from "@/lib/orgs/sign-up";

const unique = () => Math.random().toString(36).slice(2, 8);
let mails: string[] = [];
beforeEach(() => {
  delete process.env.SMTP_URL;
  mails = [];
  // Without SMTP_URL, mail is printed to the server log: that is the inbox here.
  vi.spyOn(console, "log").mockImplementation((line: unknown) => void mails.push(String(line)));
});
afterEach(() => vi.restoreAllMocks());

async function passwordSignIn(email: string, password: string) {
  const provider = (await authOptions()).providers[0] as unknown as {
    options: { authorize: (c: object) => Promise<{ id: string }> };
  };
  return provider.options.authorize({ email, password }).then(
    (user) => user.id,
    (error: Error) => error.message,
  );
}

// This file has its own empty database: the first test is the server's first sign-ups.
test("of sign-ups at once on an empty server, exactly one is ready at once; the others need the mail", async () => {
  const prisma = await db();
  expect(await prisma.user.count()).toBe(0);
  const emails = Array.from({ length: 8 }, (_, index) => `first-${index}@example.com`);
  const results = await Promise.all(
    emails.map((email, index) =>
      signUp(
        { email, password: "the first password", organization: `First ${index}` },
        { clientAddress: `198.51.100.${100 + index}` },
      ),
    ),
  );
  expect(results.filter((result) => result.ready)).toHaveLength(1);
  const ready = emails[results.findIndex((result) => result.ready)];
  const users = await prisma.user.findMany({ where: { email: { in: emails } } });
  expect(users).toHaveLength(8);
  expect(users.filter((user) => !user.signUpPending).map((user) => user.email)).toEqual([ready]);
  // Only the ready one signs in with its password; every other was mailed a link to finish.
  expect(await passwordSignIn(ready, "the first password")).toMatch(/^usr_/);
  for (const email of emails.filter((email) => email !== ready)) {
    expect(await passwordSignIn(email, "the first password")).not.toMatch(/^usr_/);
    expect(mails.filter((mail) => mail.includes(`mail to ${email}`))).toEqual([
      expect.stringContaining("Finish signing up"),
    ]);
  }
});

test("an existing address is answered like a new one, a mail instead of an account, keeping its password", async () => {
  const existing = `taken-${unique()}@example.com`;
  await signUp(
    { email: existing, password: "the owner's password", organization: "Taken" },
    { clientAddress: "198.51.100.2" },
  );
  const prisma = await db();
  const owner = await prisma.user.findUniqueOrThrow({ where: { email: existing }, include: { memberships: true } });
  await prisma.user.update({ where: { id: owner.id }, data: { signUpPending: false } });
  mails = [];

  const fresh = `fresh-${unique()}@example.com`;
  const forExisting = await signUp(
    { email: existing, password: "an attacker's guess", organization: "Squat" },
    { clientAddress: "198.51.100.3" },
  );
  const forNew = await signUp(
    { email: fresh, password: "a new password", organization: "Fresh" },
    { clientAddress: "198.51.100.3" },
  );
  expect(forExisting).toEqual(forNew);
  expect(forExisting).toEqual({ ready: false });

  // Each address got one mail: the existing one is told it has an account; the new one a link to finish.
  expect(mails.filter((mail) => mail.includes(`mail to ${existing}`))).toEqual([
    expect.stringContaining("You already have a Memory Gateway account"),
  ]);
  const [finish] = mails.filter((mail) => mail.includes(`mail to ${fresh}`));
  expect(finish).toContain("Finish signing up");
  expect(finish).toContain("The link asks for the password you chose when signing up.");
  expect(finish).toContain("If you did not sign up, ignore this email");
  expect(finish).toMatch(/\/sign-up\/finish\?/);

  // Nothing changed for the existing account.
  const after = await prisma.user.findUniqueOrThrow({ where: { email: existing }, include: { memberships: true } });
  expect(await verifyPassword(after.passwordHash!, "the owner's password")).toBe(true);
  expect(after.memberships).toHaveLength(owner.memberships.length);
  expect(await prisma.organization.count({ where: { name: "Squat" } })).toBe(0);
  expect(await passwordSignIn(existing, "an attacker's guess")).toBe("InvalidCredentials");
});

/** The token of the finish-sign-up link last mailed to an address. */
function finishToken(email: string): string {
  const mail = mails.filter((line) => line.includes(`mail to ${email}`)).at(-1) ?? "";
  const link = /\/sign-up\/finish\?(\S+)/.exec(mail)?.[1];
  if (!link) throw new Error(`no finish link in ${mail}`);
  const params = new URLSearchParams(link);
  expect(params.get("email")).toBe(email);
  return params.get("token")!;
}

const signInEvent = async (user: { id: string; email: string }) =>
  (await authOptions()).events!.signIn!({
    user,
    account: { provider: "email", type: "email", providerAccountId: user.email },
  });

test("a sign-up's password signs in only once the finish page got the mailed token and that password", async () => {
  const email = `pending-${unique()}@example.com`;
  await signUp({ email, password: "a pending password", organization: "Pending" }, { clientAddress: "198.51.100.4" });
  // Exactly the answer to a wrong password: the form's filler cannot learn that the address was new.
  expect(await passwordSignIn(email, "a pending password")).toBe("InvalidCredentials");
  const token = finishToken(email);
  const prisma = await db();
  const user = await prisma.user.findUniqueOrThrow({
    where: { email },
    include: { memberships: { include: { org: true } } },
  });
  expect(user.memberships.map((m) => [m.org.name, m.role])).toEqual([["Pending", "owner"]]);

  // The password alone (a token that is not the mailed one) or the token alone (a wrong password) does nothing.
  const expired = {
    name: "InvalidError",
    message: expect.stringMatching(/^This link has expired or was already used/),
  };
  await expect(finishSignUp({ email, token: "0".repeat(64), password: "a pending password" })).rejects.toMatchObject(
    expired,
  );
  const other = `other-${unique()}@example.com`;
  await signUp(
    { email: other, password: "a pending password", organization: "Other" },
    { clientAddress: "198.51.100.5" },
  );
  await expect(
    finishSignUp({ email, token: finishToken(other), password: "a pending password" }),
  ).rejects.toMatchObject(expired);
  await expect(finishSignUp({ email, token, password: "a wrong guess" })).rejects.toMatchObject({
    name: "InvalidError",
    details: [{ field: "password", message: "That is not the password chosen at sign-up." }],
  });
  expect(await passwordSignIn(email, "a pending password")).toBe("InvalidCredentials");
  expect((await prisma.signInLockout.findUnique({ where: { email } }))?.failures).toBe(3);

  // Both: confirmed, the password signs in, and the link is used up.
  await finishSignUp({ email, token, password: "a pending password" });
  expect(await prisma.user.findUniqueOrThrow({ where: { email } })).toMatchObject({ signUpPending: false });
  expect(await passwordSignIn(email, "a pending password")).toBe(user.id);
  await expect(finishSignUp({ email, token, password: "a pending password" })).rejects.toMatchObject(expired);
});

test("wrong passwords on the finish page lock the address like password sign-in", async () => {
  const email = `guess-${unique()}@example.com`;
  await signUp({ email, password: "the chosen password", organization: "Guess" }, { clientAddress: "198.51.100.6" });
  const token = finishToken(email);
  for (let i = 0; i < 5; i++) await finishSignUp({ email, token, password: `guess ${i}` }).catch(() => undefined);
  expect(await lockedUntil(email)).not.toBeNull();
  await expect(finishSignUp({ email, token, password: "the chosen password" })).rejects.toMatchObject({
    details: [{ field: "password", message: "Too many wrong passwords. Try again in 15 minutes." }],
  });
});

test("someone else's sign-up with my address: any other magic link confirms it without their password", async () => {
  const prisma = await db();
  // Every magic link the owner of the address may use: one asked for on the sign-in page (next-auth's
  // own), an invitation, the "already have an account" mail's. Each runs the same signIn event.
  for (const via of ["sign-in page", "invitation", "already registered"]) {
    const victim = `victim-${unique()}@example.com`;
    await signUp(
      { email: victim, password: "the attacker's password", organization: `Trap ${via}` },
      { clientAddress: "198.51.100.7" },
    );
    const finishLink = finishToken(victim);
    if (via === "invitation") await createMagicLink(victim, "/");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: victim } });
    await signInEvent({ id: user.id, email: victim });

    const after = await prisma.user.findUniqueOrThrow({ where: { email: victim } });
    expect(after, via).toMatchObject({ signUpPending: false, passwordHash: null });
    expect(await passwordSignIn(victim, "the attacker's password"), via).toBe("InvalidCredentials");
    // The attacker, even holding the finish link, cannot bring the password back.
    await expect(
      finishSignUp({ email: victim, token: finishLink, password: "the attacker's password" }),
    ).rejects.toMatchObject({
      message: "This sign-up is already finished. Sign in from the sign-in page.",
    });

    // The owner sets a password of their own from /account, without a current one.
    const [current, other] = [
      await startConsoleSession(user.id, "magic_link"),
      await startConsoleSession(user.id, "magic_link"),
    ];
    expect(other).not.toBe(current);
    expect(
      await setPassword({ userId: user.id, currentSessionId: current, newPassword: "the owner's password" }),
    ).toEqual({ endedSessions: 1 });
    expect(await passwordSignIn(victim, "the owner's password")).toBe(user.id);
    // Only once: after that, changing it needs the current one.
    await expect(
      setPassword({ userId: user.id, currentSessionId: current, newPassword: "a takeover" }),
    ).rejects.toMatchObject({
      name: "InvalidError",
      details: [{ field: "new_password" }],
    });
  }

  // A magic link of a confirmed account leaves its password alone.
  const confirmed = `kept-${unique()}@example.com`;
  await signUp(
    { email: confirmed, password: "a confirmed password", organization: "Kept" },
    { clientAddress: "198.51.100.8" },
  );
  await finishSignUp({ email: confirmed, token: finishToken(confirmed), password: "a confirmed password" });
  const kept = await prisma.user.findUniqueOrThrow({ where: { email: confirmed } });
  await signInEvent({ id: kept.id, email: confirmed });
  expect(await passwordSignIn(confirmed, "a confirmed password")).toBe(kept.id);
});

test("sign-up is limited per email (3 an hour) and per client address (20 an hour)", async () => {
  const email = `limited-${unique()}@example.com`;
  for (let i = 0; i < 3; i++)
    await signUp(
      { email, password: "a long password", organization: "Limited" },
      { clientAddress: `198.51.100.${10 + i}` },
    );
  const refused = await signUp(
    { email, password: "a long password", organization: "Limited" },
    { clientAddress: "198.51.100.20" },
  ).catch((error) => error);
  expect(refused).toMatchObject({ name: "RateLimitedError", retryAfterSeconds: expect.any(Number) });
  expect(refused.message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);

  const address = "203.0.113.50";
  for (let i = 0; i < 20; i++)
    await signUp(
      { email: `many-${i}-${unique()}@example.com`, password: "a long password", organization: "Many" },
      { clientAddress: address },
    );
  await expect(
    signUp(
      { email: `many-${unique()}@example.com`, password: "a long password", organization: "Many" },
      { clientAddress: address },
    ),
  ).rejects.toMatchObject({ name: "RateLimitedError" });
});

test("SIGN_UP_RATE_LIMIT_PER_HOUR sets the per-address limit; other than a whole number, it is refused", async () => {
  const address = "203.0.113.77";
  vi.stubEnv("SIGN_UP_RATE_LIMIT_PER_HOUR", "2");
  try {
    for (let i = 0; i < 2; i++)
      await signUp(
        { email: `setting-${i}-${unique()}@example.com`, password: "a long password", organization: "Setting" },
        { clientAddress: address },
      );
    await expect(
      signUp(
        { email: `setting-${unique()}@example.com`, password: "a long password", organization: "Setting" },
        { clientAddress: address },
      ),
    ).rejects.toMatchObject({ name: "RateLimitedError" });
    for (const wrong of ["0", "-3", "2.5", "many"]) {
      vi.stubEnv("SIGN_UP_RATE_LIMIT_PER_HOUR", wrong);
      expect(() => signUpRulePerAddress(), wrong).toThrow(/SIGN_UP_RATE_LIMIT_PER_HOUR must be a whole number/);
    }
  } finally {
    vi.unstubAllEnvs();
  }
});
