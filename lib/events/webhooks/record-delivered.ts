// The record of a 2xx answer, which its namespace's next event waits for (a crash then sends again only the event
// under way). Records made while one is being written go together in the next statement (a group commit), and a
// record waits a moment for the sends under way: the endpoints of one namespace receive its events at about the
// same moments, and each record is a commit of its own that a stream of writes would otherwise wait behind, once
// per endpoint.
import { aheadOfWaitingTransactions, queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

export interface DeliveredRecord {
  orgId: string;
  deliveryId: string;
  status: number | null;
  latencyMs: number;
  /** Its event has waited long enough that the record goes ahead of waiting transactions (the writes). */
  behind: boolean;
}

const waiting: { record: DeliveredRecord; settle: (error?: unknown) => void }[] = [];
let writing = false;

/** How long a record waits at most for the sends under way, whose records would join it. */
const GATHER_AT_MOST_MS = 3;
let sendsUnderWay = 0;
let noSendUnderWay: (() => void) | undefined;

/** Sends a delivery: the records that wait meanwhile wait for its answer (GATHER_AT_MOST_MS at most). */
export async function whileSending<T>(send: () => Promise<T>): Promise<T> {
  sendsUnderWay += 1;
  try {
    return await send();
  } finally {
    sendsUnderWay -= 1;
    // Told once the caller has made its record: its continuation runs before the event loop's next phase.
    if (sendsUnderWay === 0) setImmediate(() => sendsUnderWay === 0 && noSendUnderWay?.());
  }
}

function sendsAnsweredOrGathered(): Promise<void> {
  if (sendsUnderWay === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, GATHER_AT_MOST_MS);
    noSendUnderWay = () => {
      clearTimeout(timer);
      resolve();
    };
  }).finally(() => (noSendUnderWay = undefined));
}

/** Records the delivery as delivered; resolves once that is committed. */
export function recordDelivered(record: DeliveredRecord): Promise<void> {
  return new Promise((resolve, reject) => {
    waiting.push({ record, settle: (error) => (error === undefined ? resolve() : reject(error)) });
    if (!writing) void writeWaiting();
  });
}

async function writeWaiting() {
  writing = true;
  while (waiting.length > 0) {
    await sendsAnsweredOrGathered();
    const group = waiting.splice(0);
    const records = group.map(({ record }) => ({
      org_id: record.orgId,
      id: record.deliveryId,
      response_status: record.status,
      latency_ms: record.latencyMs,
    }));
    // Sent straight to the database (not through Prisma, which loses the async context), so that it may go
    // ahead of waiting transactions.
    const statement = () =>
      queryRows(
        Prisma.sql`UPDATE webhook_deliveries d
                   SET status = 'delivered', attempts = d.attempts + 1, response_status = r.response_status,
                       latency_ms = r.latency_ms, last_error = NULL, delivered_at = now(), updated_at = now()
                   FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
                     AS r(org_id text, id text, response_status int, latency_ms int)
                   WHERE d.org_id = r.org_id AND d.id = r.id AND d.status = 'pending'`,
      );
    try {
      await (group.some(({ record }) => record.behind) ? aheadOfWaitingTransactions(statement) : statement());
      for (const { settle } of group) settle();
    } catch (error) {
      for (const { settle } of group) settle(error ?? new Error("Recording deliveries failed."));
    }
  }
  writing = false;
}
