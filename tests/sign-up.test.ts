// Sign-up (issue 12, item 14): the same answer for a new and an existing address, the password of an
// unconfirmed sign-up does not sign in, and sign-up is rate limited like sign-in.
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { authOptions } from "@/lib/auth/console-auth";
import { verifyPassword } from "@/lib/auth/passwords";
import { db } from "@/lib/db";
import { signUp } from "@/lib/orgs/sign-up";

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
  const provider = (await authOptions()).providers[0] as unknown as { options: { authorize: (c: object) => Promise<{ id: string }> } };
  return provider.options.authorize({ email, password }).then((user) => user.id, (error: Error) => error.message);
}

// This file has its own empty database: the first test is the server's first sign-up.
test("the very first account of an empty server is ready at once (there is no one to enumerate)", async () => {
  const prisma = await db();
  expect(await prisma.user.count()).toBe(0);
  expect(await signUp({ email: "first@example.com", password: "the first password", organization: "First" }, { clientAddress: "198.51.100.1" })).toEqual({ ready: true });
  expect(await passwordSignIn("first@example.com", "the first password")).toMatch(/^usr_/);
});

test("an existing address gets the same answer as a new one, a mail instead of an account, and keeps its password", async () => {
  const existing = `taken-${unique()}@example.com`;
  await signUp({ email: existing, password: "the owner's password", organization: "Taken" }, { clientAddress: "198.51.100.2" });
  const prisma = await db();
  const owner = await prisma.user.findUniqueOrThrow({ where: { email: existing }, include: { memberships: true } });
  await prisma.user.update({ where: { id: owner.id }, data: { signUpPending: false } });
  mails = [];

  const fresh = `fresh-${unique()}@example.com`;
  const forExisting = await signUp({ email: existing, password: "an attacker's guess", organization: "Squat" }, { clientAddress: "198.51.100.3" });
  const forNew = await signUp({ email: fresh, password: "a new password", organization: "Fresh" }, { clientAddress: "198.51.100.3" });
  expect(forExisting).toEqual(forNew);
  expect(forExisting).toEqual({ ready: false });

  // Each address got one mail: the existing one is told it has an account; the new one a link to finish.
  expect(mails.filter((mail) => mail.includes(`mail to ${existing}`))).toEqual([expect.stringContaining("You already have a Memory Gateway account")]);
  const [finish] = mails.filter((mail) => mail.includes(`mail to ${fresh}`));
  expect(finish).toContain("Finish signing up");
  expect(finish).toMatch(/\/api\/auth\/callback\/email\?/);

  // Nothing changed for the existing account.
  const after = await prisma.user.findUniqueOrThrow({ where: { email: existing }, include: { memberships: true } });
  expect(await verifyPassword(after.passwordHash!, "the owner's password")).toBe(true);
  expect(after.memberships).toHaveLength(owner.memberships.length);
  expect(await prisma.organization.count({ where: { name: "Squat" } })).toBe(0);
  expect(await passwordSignIn(existing, "an attacker's guess")).toBe("InvalidCredentials");
});

test("the password of a sign-up signs in only once the mailed link confirmed the address", async () => {
  const email = `pending-${unique()}@example.com`;
  await signUp({ email, password: "a pending password", organization: "Pending" }, { clientAddress: "198.51.100.4" });
  // Exactly the answer to a wrong password: the form's filler cannot learn that the address was new.
  expect(await passwordSignIn(email, "a pending password")).toBe("InvalidCredentials");

  // Using the link: next-auth's email callback runs the signIn event for the user.
  const prisma = await db();
  const user = await prisma.user.findUniqueOrThrow({ where: { email }, include: { memberships: { include: { org: true } } } });
  expect(user.memberships.map((m) => [m.org.name, m.role])).toEqual([["Pending", "owner"]]);
  await (await authOptions()).events!.signIn!({ user: { id: user.id, email }, account: { provider: "email", type: "email", providerAccountId: email } });
  expect(await passwordSignIn(email, "a pending password")).toBe(user.id);
});

test("sign-up is limited per email (3 an hour) and per client address (20 an hour)", async () => {
  const email = `limited-${unique()}@example.com`;
  for (let i = 0; i < 3; i++) await signUp({ email, password: "a long password", organization: "Limited" }, { clientAddress: `198.51.100.${10 + i}` });
  const refused = await signUp({ email, password: "a long password", organization: "Limited" }, { clientAddress: "198.51.100.20" }).catch((error) => error);
  expect(refused).toMatchObject({ code: "RATE_LIMITED", headers: { "retry-after": expect.stringMatching(/^\d+$/) } });
  expect(refused.message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);

  const address = "203.0.113.50";
  for (let i = 0; i < 20; i++) await signUp({ email: `many-${i}-${unique()}@example.com`, password: "a long password", organization: "Many" }, { clientAddress: address });
  await expect(signUp({ email: `many-${unique()}@example.com`, password: "a long password", organization: "Many" }, { clientAddress: address })).rejects.toMatchObject({ code: "RATE_LIMITED" });
});
