// Integrations are managed by the roles with INTEGRATION_MANAGE (owners and admins): for a member the page
// does not exist (404, as the audit log), decided here, outside the page's loading boundary, so that the
// status says so too.
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { memberAccess } from "@/lib/console/session";

export default async function IntegrationsGate({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ org: string }>;
}) {
  const access = await memberAccess((await params).org);
  if (!access) return null;
  if (!ROLE_PERMISSIONS[access.membership.role].includes("INTEGRATION_MANAGE")) notFound();
  return children;
}
