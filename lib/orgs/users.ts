import { ApiError, notFound } from "@/lib/api/errors";
import { hashPassword } from "@/lib/auth/passwords";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";

export { Email, Password } from "./schemas";

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
