import { ApiError } from "@/lib/api/errors";
import { db } from "@/lib/db";
import { addMember } from "./members";
import { createOrganization } from "./organizations";
import type { z } from "zod";
import type { SignUpForm } from "./schemas";
import { createUser } from "./users";

export function signUpAllowed(): boolean {
  return process.env.ALLOW_SIGNUP !== "false";
}

/** A new user with a password and a new organization they own. */
export async function signUp(input: z.infer<typeof SignUpForm>) {
  if (!signUpAllowed()) throw new ApiError("FORBIDDEN", "Sign-up is turned off on this server. Ask an administrator for an invitation.");
  const user = await createUser({ email: input.email, password: input.password }).catch((error) => {
    if (error instanceof ApiError && error.code === "CONFLICT") throw new ApiError("CONFLICT", "An account with this email already exists. Sign in instead.");
    throw error;
  });
  const actor = { type: "user", id: user.id } as const;
  const org = await createOrganization(input.organization, actor);
  await addMember({ orgId: org.id, userId: user.id, role: "owner" }, actor);
  const prisma = await db();
  await prisma.user.update({ where: { id: user.id }, data: { lastOrgId: org.id } });
  return { user, org };
}
