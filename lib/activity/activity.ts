import { db } from "@/lib/db";
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
  const prisma = await db();
  await prisma.activityLog.create({
    data: {
      id: newId("act"),
      orgId: entry.orgId,
      namespaceId: entry.namespaceId ?? null,
      apiKeyId: entry.apiKeyId,
      identityId: entry.identityId ?? null,
      operation: entry.operation,
      status: entry.status,
      latencyMs: Math.round(entry.latencyMs),
      details: (entry.details ?? {}) as object,
    },
  });
}
