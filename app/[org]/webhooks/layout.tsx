// Webhooks are managed by the roles with WEBHOOK_MANAGE (owners and admins): for a member the pages do not
// exist (404, as the integrations page), decided here, outside the pages' loading boundaries, so that the
// status says so too.
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { memberAccess } from "@/lib/console/session";

export default async function WebhooksGate({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ org: string }>;
}) {
  const access = await memberAccess((await params).org);
  if (!access) return null;
  if (!ROLE_PERMISSIONS[access.membership.role].includes("WEBHOOK_MANAGE")) notFound();
  return children;
}
