// A console section that only the roles with a permission may see: for anyone else its pages do not exist (404),
// decided in the section's layout, outside the pages' loading boundaries, so that the status says so too.
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ROLE_PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { memberAccess } from "@/lib/console/session";

/** The layout of a section gated by `permission`. */
export function permissionGate(permission: Permission) {
  return async function PermissionGate({
    children,
    params,
  }: {
    children: ReactNode;
    params: Promise<{ org: string }>;
  }) {
    const access = await memberAccess((await params).org);
    if (!access) return null;
    if (!ROLE_PERMISSIONS[access.membership.role].includes(permission)) notFound();
    return children;
  };
}
