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

/** `details.refused` of a request refused a namespace of its organization its key is not granted. */
export const REFUSED_UNGRANTED = "no grant";

export interface ActivityEntry extends ActivityNote {
  orgId: string;
  apiKeyId: string;
  operation: Operation;
  status: number;
  latencyMs: number;
}

/** The rows of requests answered while the previous write was in flight: the next write's, all at once. */
let queued: { entry: ActivityEntry; written: { resolve: () => void; reject: (error: unknown) => void } }[] = [];
/** The write in flight, which goes on with the queued rows until none are left. */
let writing: Promise<void> | undefined;

/**
 * One row per memory operation (successful or refused): which key, namespace and identity, its status and
 * latency; resolves once it is written. Written at once when no other write is in flight; otherwise with the
 * rows queued behind it, in one statement: the table's statement triggers (the daily rollup, the identities'
 * summaries) and the statement's own round trip are paid once per batch, not once per request (at 8 clients,
 * a fifth of the embedded database's time per recall went to these inserts). Read back through
 * `activityWritten()` first, which waits for the rows already answered.
 */
export function recordActivity(entry: ActivityEntry): Promise<void> {
  const written = new Promise<void>((resolve, reject) => queued.push({ entry, written: { resolve, reject } }));
  writing ??= writeQueued();
  return written;
}

/** Resolves once every row recorded so far is written (or its write failed). */
export async function activityWritten(): Promise<void> {
  while (writing) await writing;
}

async function writeQueued(): Promise<void> {
  try {
    while (queued.length > 0) {
      const batch = queued;
      queued = [];
      try {
        await insertRows(batch.map((row) => row.entry));
        for (const row of batch) row.written.resolve();
      } catch (error) {
        if (batch.length === 1) batch[0].written.reject(error);
        // One row the table refuses must not cost the others theirs (another organization's, often): each alone.
        else for (const row of batch) await insertRows([row.entry]).then(row.written.resolve, row.written.reject);
      }
    }
  } finally {
    writing = undefined;
  }
}

function insertRows(entries: ActivityEntry[]) {
  const column = <T>(value: (entry: ActivityEntry) => T) => entries.map(value);
  // Straight to the driver, one statement of arrays whatever the batch's size (one kept statement): Prisma's
  // createMany costs more than the insert itself.
  return queryRows(
    Prisma.sql`INSERT INTO activity_logs
       (id, org_id, namespace_id, api_key_id, identity_id, operation, status, latency_ms, details)
     SELECT * FROM unnest(${column(() => newId("act"))}::text[], ${column((e) => e.orgId)}::text[],
       ${column((e) => e.namespaceId ?? null)}::text[], ${column((e) => e.apiKeyId)}::text[],
       ${column((e) => e.identityId ?? null)}::text[], ${column((e) => e.operation)}::text[],
       ${column((e) => e.status)}::int[], ${column((e) => Math.round(e.latencyMs))}::int[],
       ${column((e) => JSON.stringify(e.details ?? {}))}::jsonb[])`,
  );
}
