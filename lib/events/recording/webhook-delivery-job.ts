import { Prisma } from "@/lib/generated/prisma/client";

/** The job that delivers an endpoint's pending events (one per endpoint: lib/events/webhooks/deliver.ts). */
export const WEBHOOK_DELIVERY_JOB = "webhook_delivery";

/** The key of an endpoint's delivery job, as text or (for a statement over many endpoints) as SQL. */
export function webhookJobKey(endpointId: string): string;
export function webhookJobKey(endpointId: Prisma.Sql): Prisma.Sql;
export function webhookJobKey(endpointId: string | Prisma.Sql) {
  return typeof endpointId === "string" ? `webhook:${endpointId}` : Prisma.sql`'webhook:' || ${endpointId}`;
}
