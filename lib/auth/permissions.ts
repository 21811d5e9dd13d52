import { z } from "zod";
import { Role } from "@/lib/generated/prisma/enums";

export const PERMISSIONS = [
  "NAMESPACE_READ",
  "NAMESPACE_WRITE",
  "NAMESPACE_MANAGE",
  "INTEGRATION_MANAGE",
  "WEBHOOK_MANAGE",
] as const;
export const Permission = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof Permission>;

/** How the console names each permission. */
export const PERMISSION_LABELS: Record<Permission, string> = {
  NAMESPACE_READ: "read",
  NAMESPACE_WRITE: "write",
  NAMESPACE_MANAGE: "manage",
  INTEGRATION_MANAGE: "integrations",
  WEBHOOK_MANAGE: "webhooks",
};

/** The most a member of each role may put on a key they create: a key never exceeds its creator. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  member: ["NAMESPACE_READ", "NAMESPACE_WRITE"],
};

/** The roles of a membership, from the schema's enum (the most powerful first). */
export const ROLES = Object.values(Role) as [Role, ...Role[]];

/** The roles a member of `role` may give (invite as, change to, or take away): only owners touch owners. */
export function assignableRoles(role: Role): Role[] {
  return role === "owner" ? ROLES : ROLES.filter((assignable) => assignable !== "owner");
}

/**
 * The namespaces a member may use and grant to the keys they create, as a Prisma filter on namespaces:
 * owners and admins every namespace of the organization, members those granted to them.
 */
export function namespacesOfMember(member: { userId: string; role: Role }) {
  return member.role === "member" ? { grants: { some: { userId: member.userId } } } : {};
}
