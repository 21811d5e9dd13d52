// The audit log is for owners and admins: for a member the page does not exist (404), decided here, outside
// the page's loading boundary, so that the status says so too.
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { memberAccess } from "@/lib/console/session";

export default async function AuditGate({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ org: string }>;
}) {
  const access = await memberAccess((await params).org);
  if (!access) return null;
  if (access.membership.role === "member") notFound();
  return children;
}
