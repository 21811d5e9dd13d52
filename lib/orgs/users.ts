import { z } from "zod";
import { ApiError, notFound } from "@/lib/api/errors";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/auth/passwords";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";

export const Email = z.email("must be a valid email address").max(254).transform((email) => email.toLowerCase());
export const Password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);

export async function createUser(input: { email: string; password?: string; name?: string }) {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const prisma = await db();
  const existing = await prisma.user.findUnique({ where: { email: input.email } });
  if (existing) throw new ApiError("CONFLICT", `A user with email ${input.email} already exists.`);
  return prisma.user.create({
    data: { id: newId("usr"), email: input.email, name: input.name ?? null, passwordHash },
  });
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
