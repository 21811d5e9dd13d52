// The gate of an endpoint's page, outside its loading boundary: an endpoint the person may not manage (another
// organization's, or none) answers 404, through the API's own lookup (GET /webhooks/{id}).
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { memberAccess, orNotFound } from "@/lib/console/session";
import { WebhookIdParams } from "@/lib/events/webhooks/schemas";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";

export default async function WebhookGate({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ org: string; webhookId: string }>;
}) {
  const { org, webhookId } = await params;
  const access = await memberAccess(org);
  if (!access) return null;
  if (!ROLE_PERMISSIONS[access.membership.role].includes("WEBHOOK_MANAGE")) notFound();
  if (!WebhookIdParams.safeParse({ id: webhookId }).success) notFound();
  await orNotFound(runOperation(operations.getWebhook, access.principal, { params: { id: webhookId } }));
  return children;
}
