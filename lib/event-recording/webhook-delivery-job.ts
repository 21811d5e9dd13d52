import { Prisma } from "@/lib/generated/prisma/client";

/** The job that delivers an endpoint's pending events (one per endpoint: lib/events/webhooks/deliver.ts). */
export const WEBHOOK_DELIVERY_JOB = "webhook_delivery";

/**
 * An endpoint's job is due this long after the event that queues it: the events of the next writes join the
 * same run (one claim, one read, one record for several) rather than each paying for a run of its own, which
 * under a stream of writes takes the server's time from the writes themselves.
 */
export const WEBHOOK_GATHER_MS = 250;

/** The key of an endpoint's delivery job, as text or (for a statement over many endpoints) as SQL. */
export function webhookJobKey(endpointId: string): string;
export function webhookJobKey(endpointId: Prisma.Sql): Prisma.Sql;
export function webhookJobKey(endpointId: string | Prisma.Sql) {
  return typeof endpointId === "string" ? `webhook:${endpointId}` : Prisma.sql`'webhook:' || ${endpointId}`;
}
