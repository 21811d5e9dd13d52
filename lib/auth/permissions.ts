import { z } from "zod";
import type { Role } from "@/lib/generated/prisma/enums";

export const PERMISSIONS = ["NAMESPACE_READ", "NAMESPACE_WRITE", "NAMESPACE_MANAGE", "INTEGRATION_MANAGE"] as const;
export const Permission = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof Permission>;

/** The most a member of each role may put on a key they create: a key never exceeds its creator. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  member: ["NAMESPACE_READ", "NAMESPACE_WRITE"],
};

export const ROLES = ["owner", "admin", "member"] as const satisfies readonly Role[];
