import { Prisma } from "@/lib/generated/prisma/client";
import { eventJson, type EventBodyRow } from "../event-json";

/** The body of a Standard Webhooks message: the event's type, when it happened, and the event as the feed shows it. */
export function webhookMessage(row: EventBodyRow, includeContent: boolean) {
  const data = eventJson(row, includeContent);
  return { type: data.type, timestamp: data.created_at, data };
}

/**
 * A memory's content beside its event for an endpoint that asked for it: the memory as it is now, and for an
 * endpoint made with a key, only while the key's scopes can read it.
 */
export function endpointContentJoin(endpoint: { includeContent: boolean; apiKeyId: string | null }): Prisma.Sql {
  if (!endpoint.includeContent) return Prisma.sql`LEFT JOIN memories m ON false`;
  const keyScopes = endpoint.apiKeyId
    ? Prisma.sql`AND m.scopes @> COALESCE((SELECT scopes FROM api_keys WHERE id = ${endpoint.apiKeyId}),
                                          '{"": ""}'::jsonb)`
    : Prisma.empty;
  return Prisma.sql`LEFT JOIN memories m ON m.id = e.memory_id AND m.org_id = e.org_id
    AND (m.expires_at IS NULL OR m.expires_at > now()) ${keyScopes}`;
}
