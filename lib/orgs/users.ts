import { ConflictError, notFound } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/passwords";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { explainUniqueViolation } from "@/lib/db/unique-violation";

export { Email, Password } from "./schemas";

/**
 * Creates a user. `signUpPending`: a sign-up whose address is not confirmed yet, so its password does not sign
 * in from the moment the row exists. `firstAccount`: the first account of an empty server; the database lets
 * one user hold that place, so when another holds it already this throws the unique index's own error
 * (Prisma's P2002, `isUniqueViolation`). An address that has an account: ConflictError.
 */
export async function createUser(input: {
  email: string;
  password?: string;
  name?: string;
  signUpPending?: boolean;
  firstAccount?: boolean;
}) {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const prisma = await db();
  const taken = () => new ConflictError(`A user with email ${input.email} already exists.`);
  const exists = async () => (await prisma.user.findUnique({ where: { email: input.email } })) !== null;
  if (await exists()) throw taken();
  const data = {
    id: newId("usr"),
    email: input.email,
    name: input.name ?? null,
    passwordHash,
    signUpPending: input.signUpPending ?? false,
    firstAccount: input.firstAccount ?? false,
  };
  // The same address created at once by another request: the unique index refuses this one. When the address
  // is free, what refused it was the first account's place, taken by another.
  return prisma.user.create({ data }).catch(
    explainUniqueViolation(async () => {
      if (await exists()) throw taken();
    }),
  );
}

/** A user by id or email, or 404. */
export async function findUser(idOrEmail: string) {
  const prisma = await db();
  const user = await prisma.user.findFirst({
    where: { OR: [{ id: idOrEmail }, { email: idOrEmail.toLowerCase() }] },
  });
  if (!user) throw notFound(`User ${idOrEmail}`);
  return user;
}

/** A user by email (as stored: lower case), or null: signing in, an unknown address is not an error. */
export async function userByEmail(email: string) {
  const prisma = await db();
  return prisma.user.findUnique({ where: { email: email.toLowerCase() } });
}

/** The organization a user opened last, where the console lands them after signing in; or null. */
export async function lastOrganizationId(userId: string): Promise<string | null> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { lastOrgId: true } });
  return user?.lastOrgId ?? null;
}

/**
 * Remembers the organization a member opened, for the next sign-in to land there. Only a member's own
 * organization: any other id is ignored.
 */
export async function rememberLastOrganization(userId: string, orgId: string): Promise<void> {
  const prisma = await db();
  await prisma.user.updateMany({ where: { id: userId, memberships: { some: { orgId } } }, data: { lastOrgId: orgId } });
}
