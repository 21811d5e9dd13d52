// A console section that only some roles may see: for anyone else its pages do not exist (404), decided in the
// section's layout, outside the pages' loading boundaries, so that the status says so too.
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ROLE_PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { memberAccess } from "@/lib/console/session";
import type { Role } from "@/lib/generated/prisma/enums";

/** The layout of a section that only the roles `allows` accepts may see. */
export function roleGate(allows: (role: Role) => boolean) {
  return async function RoleGate({ children, params }: { children: ReactNode; params: Promise<{ org: string }> }) {
    const access = await memberAccess((await params).org);
    if (!access) return null;
    if (!allows(access.membership.role)) notFound();
    return children;
  };
}

/** The layout of a section gated by `permission`. */
export function permissionGate(permission: Permission) {
  return roleGate((role) => ROLE_PERMISSIONS[role].includes(permission));
}
