// Events are written in the transaction of the change they tell of: both commit or neither does. The same
// statement queues a delivery for every webhook endpoint that subscribes, and the endpoint's delivery job,
// so a crash after the commit loses nothing and nothing is delivered for a change that rolled back.
import { queryRows, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { RUN_AGAIN_ON_CONFLICT, wakeJobWorkers } from "@/lib/jobs/queue";
import type { DeletionReason, EventType } from "./event-types";
import { WEBHOOK_DELIVERY_JOB, WEBHOOK_GATHER_MS, webhookJobKey } from "./webhook-delivery-job";

/** An event that is not one memory's (those are read from their rows: recordMemoryEvents). */
export interface NewEvent {
  type: EventType;
  namespaceId?: string | null;
  identityId?: string | null;
  /** The scopes of the memories it tells of (a conversation's turns): a key sees it only within them. */
  scopes?: Record<string, string>;
  /** Ids, counts and timestamps: what the event is about (never a memory's content). */
  data: Record<string, unknown>;
}

// Ids made in the statement (a batch's events are one INSERT … SELECT): the prefix of lib/ids, random after it.
const newIdSql = (prefix: string) => Prisma.sql`${prefix} || '_' || replace(gen_random_uuid()::text, '-', '')`;

/** Records events of an organization within `tx`. */
export async function recordEvents(tx: Tx, orgId: string, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await insertAndFanOut(
    tx,
    Prisma.sql`SELECT ${newIdSql("evt")}, pg_current_xact_id()::text::bigint, ${orgId}, e.type, e.namespace_id,
                      e.identity_id, e.scopes, NULL, e.data
               FROM jsonb_to_recordset(${JSON.stringify(
                 events.map((event) => ({
                   type: event.type,
                   namespace_id: event.namespaceId ?? null,
                   identity_id: event.identityId ?? null,
                   scopes: event.scopes ?? {},
                   data: event.data,
                 })),
               )}::jsonb) AS e(type text, namespace_id text, identity_id text, scopes jsonb, data jsonb)`,
  );
}

/**
 * Records one event per memory, read from the memories' rows (namespace, identity, scopes): before a deletion,
 * after a write. `data` is added to each (a deletion's reason); the memory's id, document and conversation
 * are always there.
 */
export async function recordMemoryEvents(
  tx: Tx,
  orgId: string,
  type: EventType,
  memories: string[] | { namespaceId: string },
  data: Record<string, unknown> = {},
): Promise<void> {
  if (Array.isArray(memories) && memories.length === 0) return;
  const which = Array.isArray(memories)
    ? Prisma.sql`m.id = ANY(${memories}::text[])`
    : Prisma.sql`m.namespace_id = ${memories.namespaceId}`;
  await insertAndFanOut(
    tx,
    Prisma.sql`SELECT ${newIdSql("evt")}, pg_current_xact_id()::text::bigint, m.org_id, ${type}, m.namespace_id,
                      m.identity_id, m.scopes, m.id,
                      jsonb_strip_nulls(jsonb_build_object('memory_id', m.id, 'document_id', m.document_id,
                                                           'session_id', m.session_id, 'version', m.version))
                        || ${JSON.stringify(data)}::jsonb
               FROM memories m
               WHERE m.org_id = ${orgId} AND ${which}
               ORDER BY m.created_at, m.session_position NULLS FIRST, m.id`,
  );
}

/** The deletion of memories, told as memory.deleted with why (and memory.expired first for an expiry). */
export async function recordDeletionEvents(
  tx: Tx,
  orgId: string,
  memories: string[] | { namespaceId: string },
  reason: DeletionReason,
) {
  if (reason === "expiry") await recordMemoryEvents(tx, orgId, "memory.expired", memories);
  await recordMemoryEvents(tx, orgId, "memory.deleted", memories, { reason });
}

/**
 * Inserts the events `rows` selects (id, txid, org, type, namespace, identity, scopes, memory, data), then a
 * delivery of each to every enabled endpoint of the organization whose filters take it, and the endpoints'
 * delivery jobs (due now; one running reads the new deliveries when it runs again). An endpoint made with an
 * API key takes only what that key may read now: events of namespaces granted to it (not the organization's
 * own), whose scopes hold the key's, while the key is active.
 */
async function insertAndFanOut(tx: Tx, rows: Prisma.Sql) {
  const queued = await tx.$queryRaw<{ queued: bigint; xid: string }[]>(
    Prisma.sql`WITH new_events AS (
       INSERT INTO events (id, txid, org_id, type, namespace_id, identity_id, scopes, memory_id, data)
       ${rows}
       RETURNING id, org_id, type, namespace_id, scopes, txid, seq
     ), deliveries AS (
       INSERT INTO webhook_deliveries (id, org_id, endpoint_id, event_id, order_key, txid, seq)
       SELECT ${newIdSql("dlv")}, e.org_id, w.id, e.id, COALESCE(e.namespace_id, ''), e.txid, e.seq
       FROM new_events e
       JOIN webhook_endpoints w ON w.org_id = e.org_id AND w.enabled
       WHERE (COALESCE(cardinality(w.event_types), 0) = 0 OR e.type = ANY(w.event_types))
         AND (COALESCE(cardinality(w.namespace_ids), 0) = 0 OR e.namespace_id = ANY(w.namespace_ids))
         AND (w.api_key_id IS NULL OR EXISTS (
           SELECT 1 FROM api_keys k
           JOIN namespace_grants g ON g.api_key_id = k.id AND g.namespace_id = e.namespace_id
           WHERE k.id = w.api_key_id AND k.org_id = e.org_id AND k.revoked_at IS NULL
             AND (k.expires_at IS NULL OR k.expires_at > now()) AND e.scopes @> k.scopes))
       RETURNING org_id, endpoint_id
     ), jobs_queued AS (
       INSERT INTO jobs (id, org_id, kind, key, payload, run_after, max_attempts, updated_at)
       SELECT ${newIdSql("job")}, d.org_id, ${WEBHOOK_DELIVERY_JOB}, ${webhookJobKey(Prisma.sql`d.endpoint_id`)},
              jsonb_build_object('endpoint_id', d.endpoint_id),
              GREATEST(now() + ${WEBHOOK_GATHER_MS} * interval '1 millisecond', w.circuit_open_until), 5, now()
       FROM (SELECT DISTINCT org_id, endpoint_id FROM deliveries) d
       -- An endpoint whose circuit is open (lib/events/webhooks/endpoint-circuit.ts) is not run before it ends.
       JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.org_id = d.org_id
       ${RUN_AGAIN_ON_CONFLICT}
       RETURNING key, status, run_after
     ), queued_before AS (
       SELECT key, run_after FROM jobs
       WHERE key IN (SELECT key FROM jobs_queued) AND status = 'queued'
     )
     SELECT count(*) FILTER (WHERE q.status = 'queued' AND NOT COALESCE(b.run_after <= q.run_after, false)) AS queued,
            pg_current_xact_id()::text AS xid
     FROM jobs_queued q LEFT JOIN queued_before b ON b.key = q.key`,
  );
  // A job that was already queued to run no later is woken for by what queued it; a running one, when it ends.
  const jobs = Number(queued[0].queued);
  if (jobs > 0) wakeWhenDueAndCommitted(queued[0].xid, jobs, WEBHOOK_GATHER_MS + 5, Date.now());
}

/** How often a wake-up looks again while the transaction that queued the job is still open. */
const COMMIT_CHECK_MS = 50;
/** A transaction open longer than this is left to the workers' poll. */
const COMMIT_WAIT_MAX_MS = 60_000;

/**
 * Wakes the delivery workers once the jobs are due and the transaction `xid` that queued them has committed
 * (their poll finds them otherwise). Waking at the due time alone was not enough: a write still open then (a
 * slow transaction) left the wake-up nothing to claim, and every write after it, finding the job queued to run
 * no later, left the waking to that lost one, so nothing was delivered until the next poll, a minute on.
 */
function wakeWhenDueAndCommitted(xid: string, jobs: number, delayMs: number, since: number) {
  setTimeout(async () => {
    const status = await queryRows<{ status: string | null }>(
      Prisma.sql`SELECT pg_xact_status(${xid}::xid8) AS status`,
    ).then(
      ([row]) => row.status,
      () => "unknown",
    );
    if (status === "in progress" && Date.now() - since < COMMIT_WAIT_MAX_MS)
      wakeWhenDueAndCommitted(xid, jobs, COMMIT_CHECK_MS, since);
    else if (status !== "aborted") wakeJobWorkers(WEBHOOK_DELIVERY_JOB, jobs);
  }, delayMs).unref();
}
