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

interface QueuedRow {
  entry: ActivityEntry;
  /** When it was recorded (its operation answered): its `created_at`, however long it is held. */
  at: Date;
  written: { resolve: () => void; reject: (error: unknown) => void };
}

/**
 * The process's activity writes. On globalThis: Next bundles each route module with its own copy of this module,
 * and a console page's read (activityWritten) must see the rows the API's routes hold.
 */
interface ActivityWrites {
  /** The rows of requests answered while the previous write was in flight (or held): the next write's, at once. */
  queued: QueuedRow[];
  /** The write in flight, which goes on with the queued rows until none are left. */
  writing?: Promise<void>;
  /** Operations under way whose rows are yet to be recorded (startActivity): while there are any, a row may wait. */
  underWay: number;
  /** Writes the rows held back (ActivityRecorder.record with `hold`) HOLD_MS after the first of them. */
  holding?: NodeJS.Timeout;
}
const processState = globalThis as typeof globalThis & { __memgwActivityWrites?: ActivityWrites };
const writes = (processState.__memgwActivityWrites ??= { queued: [], underWay: 0 });

/**
 * How long a row may wait for others while more operations are under way, and how many may wait. An insert
 * costs the embedded database's thread about a millisecond whatever its rows (its statement triggers and
 * foreign key: 1.0 ms for one row, 1.1 ms for 8, 1.8 ms for 32), and at 8 clients recalling, rows written as
 * soon as the previous write ended went two at a time: 0.9 ms of that thread per recall. Held 50 ms, they still
 * went 7 at a time, 0.3 ms of the thread per recall (93 inserts for 900 recalls); held 250 ms, 29 inserts. Every
 * reader of activity_logs and its rollups first writes what is held (activityWritten), and so does a drain: only a
 * crash within the hold loses a row. A row keeps the time it was recorded, not its insert's.
 */
const HOLD_MS = 250;
const HOLD_ROWS = 256;

/** Records the activity row of one operation, once: see startActivity. */
export interface ActivityRecorder {
  /**
   * Queues the operation's row; resolves once it is written. With `hold` (the embedded database, where no
   * answer waits for its row), a row recorded while other operations are under way waits up to HOLD_MS for
   * theirs, to go in one statement; otherwise it goes with the next write (at once when none is in flight).
   */
  record(entry: ActivityEntry, options: { hold: boolean }): Promise<void>;
}

/**
 * Counts a memory operation as under way until its row is recorded: one row per memory operation (successful
 * or refused), saying which key, namespace and identity, its status and latency. The table's statement
 * triggers (the daily rollup, the identities' summaries) and the statement's round trip are paid once per
 * batch, not once per request. Rows are read back through `activityWritten()` first, which writes those held
 * and waits for every row already answered.
 */
export function startActivity(): ActivityRecorder {
  writes.underWay += 1;
  let recorded = false;
  return {
    record(entry, { hold }) {
      if (recorded) throw new Error("An operation's activity is recorded once.");
      recorded = true;
      writes.underWay -= 1;
      const at = new Date();
      const written = new Promise<void>((resolve, reject) =>
        writes.queued.push({ entry, at, written: { resolve, reject } }),
      );
      if (hold && writes.underWay > 0 && writes.queued.length < HOLD_ROWS)
        writes.holding ??= setTimeout(writeHeld, HOLD_MS);
      else writeHeld();
      return written;
    },
  };
}

/** Resolves once every row recorded so far is written (or its write failed). */
export async function activityWritten(): Promise<void> {
  if (writes.queued.length > 0) writeHeld();
  while (writes.writing) await writes.writing;
}

function writeHeld(): void {
  clearTimeout(writes.holding);
  writes.holding = undefined;
  writes.writing ??= writeQueued();
}

async function writeQueued(): Promise<void> {
  try {
    // Rows held meanwhile wait for their timer (or activityWritten), not for this write's end.
    while (writes.queued.length > 0 && !writes.holding) {
      const batch = writes.queued;
      writes.queued = [];
      try {
        await insertRows(batch);
        for (const row of batch) row.written.resolve();
      } catch (error) {
        if (batch.length === 1) batch[0].written.reject(error);
        // One row the table refuses must not cost the others theirs (another organization's, often): each alone.
        else for (const row of batch) await insertRows([row]).then(row.written.resolve, row.written.reject);
      }
    }
  } finally {
    writes.writing = undefined;
  }
}

function insertRows(rows: QueuedRow[]) {
  const column = <T>(value: (entry: ActivityEntry) => T) => rows.map((row) => value(row.entry));
  // Straight to the driver, one statement of arrays whatever the batch's size (one kept statement): Prisma's
  // createMany costs more than the insert itself. Each row's time is its own: the insert's now() would date the
  // rows of a batch alike and up to HOLD_MS late (a day's rollup past midnight, the order of the log).
  return queryRows(
    Prisma.sql`INSERT INTO activity_logs
       (id, org_id, namespace_id, api_key_id, identity_id, operation, status, latency_ms, details, created_at)
     SELECT * FROM unnest(${column(() => newId("act"))}::text[], ${column((e) => e.orgId)}::text[],
       ${column((e) => e.namespaceId ?? null)}::text[], ${column((e) => e.apiKeyId)}::text[],
       ${column((e) => e.identityId ?? null)}::text[], ${column((e) => e.operation)}::text[],
       ${column((e) => e.status)}::int[], ${column((e) => Math.round(e.latencyMs))}::int[],
       ${column((e) => JSON.stringify(e.details ?? {}))}::jsonb[], ${rows.map((row) => row.at)}::timestamptz[])`,
  );
}
