import { queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";

/** The operations the activity log records (the console filters by them). */
export const ACTIVITY_OPERATIONS = [
  "remember",
  "recall",
  "forget",
  "ask",
  "get_memory",
  "list_memories",
  "update_memory",
  "memory_history",
  "list_entities",
  "get_entity",
  "identity_entities",
  "identity_profile",
  "add_document",
  "list_documents",
  "get_document",
  "document_content",
  "refresh_document",
  "delete_document",
] as const;
export type Operation = (typeof ACTIVITY_OPERATIONS)[number];

/** What a memory operation learns as it runs, for its activity row: filled in by the handler. */
export interface ActivityNote {
  namespaceId?: string;
  identityId?: string | null;
  details?: Record<string, unknown>;
}

export interface ActivityEntry extends ActivityNote {
  orgId: string;
  apiKeyId: string;
  operation: Operation;
  status: number;
  latencyMs: number;
}

/**
 * One row per memory operation (successful or refused): which key, namespace and identity, its status and
 * latency. Nothing in the gateway reads it back yet: operators query it by organization, identity and time.
 */
export async function recordActivity(entry: ActivityEntry): Promise<void> {
  // Straight to the driver: one row per API request, and Prisma's create costs more than the insert itself.
  await queryRows(
    Prisma.sql`INSERT INTO activity_logs
       (id, org_id, namespace_id, api_key_id, identity_id, operation, status, latency_ms, details)
     VALUES (${newId("act")}, ${entry.orgId}, ${entry.namespaceId ?? null}, ${entry.apiKeyId},
             ${entry.identityId ?? null}, ${entry.operation}, ${entry.status}::int, ${Math.round(entry.latencyMs)}::int,
             ${JSON.stringify(entry.details ?? {})}::jsonb)`,
  );
}
