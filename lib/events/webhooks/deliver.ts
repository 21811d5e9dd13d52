// Delivery: one job per endpoint (its key: lib/event-recording/webhook-delivery-job.ts) sends what is pending,
// namespace by namespace in the order of the events, each namespace stopping at its first failure until that
// delivery's retry is due: at least once, in order per namespace. The job is queued with the events that need
// it (in their transaction), by a change that resumes deliveries, and by a sweep that finds any left behind.
import { setting } from "@/lib/config";
import { db, onBackgroundConnections, queryRows } from "@/lib/db";
import { Prisma, type WebhookEndpoint } from "@/lib/generated/prisma/client";
import { RetryLaterError, startJobWorker, type ClaimedJob, type JobRunner } from "@/lib/jobs/queue";
import { claimScheduledRun } from "@/lib/jobs/schedule";
import { postOutbound, PostFailedError } from "@/lib/net/post-outbound";
import { SETTLED, SETTLED_BEFORE_TXID } from "../event-access";
import { EVENT_COLUMNS, type EventBodyRow } from "../event-json";
import { WEBHOOK_DELIVERY_JOB, WEBHOOK_GATHER_MS, webhookJobKey } from "@/lib/event-recording/webhook-delivery-job";
import { disableEndpoint } from "./disable-endpoint";
import {
  CIRCUIT_COLUMNS,
  closeCircuit,
  closeIdleCircuit,
  isTrial,
  recordNoAnswer,
  type CircuitState,
} from "./endpoint-circuit";
import { recordDelivered, whileSending } from "./record-delivered";
import { webhookHeaders } from "./webhook-secret";
import { endpointContentJoin, webhookMessage } from "./webhook-message";

/** Deliveries read per namespace at a time (each namespace's are sent one after another). */
const BATCH_PER_NAMESPACE = 100;
/** Namespaces delivered to at once, for one endpoint. */
const PARALLEL_NAMESPACES = 8;

// The event's txid and seq come too (EVENT_COLUMNS), untyped: queryRows returns an int8 as each driver parses
// it (a bigint embedded, text on PostgreSQL), and only the statement's ORDER BY needs them.
type PendingDelivery = EventBodyRow & {
  delivery_id: string;
  order_key: string;
  attempts: number;
  next_attempt_at: Date;
};

export const webhookJobRunners: Record<string, JobRunner> = {
  [WEBHOOK_DELIVERY_JOB]: (job: ClaimedJob) => deliverPending(String(job.payload.endpoint_id), job.orgId),
};

/**
 * Each 2xx is recorded before the next event is sent: on the embedded database, behind every queued write, an
 * endpoint would receive a few events a second while the server is busy writing. So the record of a delivery
 * whose event is this old goes ahead of waiting transactions (the writes); a younger one's lets them go first,
 * as every statement of the delivery workers does (onBackgroundConnections): three endpoints' records jumping
 * ahead of every write would hold each write for their whole run.
 */
const AHEAD_OF_WRITES_AFTER_MS = 1_000;

/**
 * Sends an endpoint's due deliveries until none is due; then waits (RetryLaterError) for the next retry, if any.
 * While its circuit is open (endpoint-circuit.ts) it waits for the cooldown's end instead, without a request and
 * without spending an attempt; after it, one delivery is sent alone (the trial), and the rest only once it was
 * answered.
 */
export async function deliverPending(endpointId: string, orgId: string | null): Promise<void> {
  for (;;) {
    const endpoint = await enabledEndpoint(endpointId, orgId);
    if (!endpoint) return;
    if (!endpoint.keyActive) {
      await disableEndpoint(endpoint, KEY_ENDED);
      return;
    }
    if (endpoint.circuitOpenForMs > 0) throw new RetryLaterError(endpoint.circuitOpenForMs, CIRCUIT_OPEN);
    const { groups: pending, unsettledSince } = await pendingByNamespace(endpoint);
    const settleWait = unsettledSince && settleWaitMs(unsettledSince);
    if (pending.length === 0) {
      if (settleWait) throw new RetryLaterError(settleWait, UNSETTLED);
      if (endpoint.circuitTripped) await closeIdleCircuit(endpoint);
      return;
    }
    const now = Date.now();
    const due = pending.filter((group) => group[0].next_attempt_at.getTime() <= now);
    if (due.length === 0) {
      const next = Math.min(...pending.map((group) => group[0].next_attempt_at.getTime()));
      if (settleWait && next - now > settleWait) throw new RetryLaterError(settleWait, UNSETTLED);
      throw new RetryLaterError(Math.max(0, next - now), "Waiting for the next retry of a failed delivery.");
    }
    const trial = isTrial(endpoint);
    const sent = trial ? [due[0].slice(0, 1)] : due;
    const outcomes = await inParallel(sent, PARALLEL_NAMESPACES, (group) => deliverInOrder(endpoint, group));
    if (outcomes.includes("disabled")) return;
    // Everything pending was read and delivered: what was written since asked for the job again (finishJob).
    // A trial sent one delivery of what was due: the rest go out in the next turn of the loop.
    const drained = !trial && outcomes.every((outcome) => outcome === "delivered") && due.length === pending.length;
    if (drained && pending.every((group) => group.length < BATCH_PER_NAMESPACE)) {
      if (settleWait) throw new RetryLaterError(settleWait, UNSETTLED);
      return;
    }
  }
}

/**
 * How long a run waits before looking again at deliveries whose events are not settled yet (a transaction older
 * than theirs is still open, anywhere on the database server: another organization's long import, say), given
 * when the oldest of them was written. Ending the run without asking to run again left them to the next write.
 * The gathering window at first; an eighth of their wait once that is longer, up to 5 s: a session left open for
 * hours then costs each endpoint with held-back deliveries a run every 5 s, not four a second.
 */
export function settleWaitMs(since: Date): number {
  return Math.min(Math.max(WEBHOOK_GATHER_MS, (Date.now() - since.getTime()) / 8), SETTLE_WAIT_MAX_MS);
}
export const SETTLE_WAIT_MAX_MS = 5_000;
const UNSETTLED = "Waiting for transactions older than pending events to end.";

const KEY_ENDED = "The API key that made this endpoint has expired or was revoked.";
const CIRCUIT_OPEN = "The endpoint's circuit is open: its recent attempts got no answer.";

/** An endpoint made with an API key (`w`) receives nothing once the key is revoked or expired. */
const CREATOR_KEY_ACTIVE = Prisma.sql`(w.api_key_id IS NULL OR EXISTS (
  SELECT 1 FROM api_keys k
  WHERE k.id = w.api_key_id AND k.org_id = w.org_id AND k.revoked_at IS NULL
    AND (k.expires_at IS NULL OR k.expires_at > now())))`;

type DeliveringEndpoint = Pick<
  WebhookEndpoint,
  | "id"
  | "orgId"
  | "url"
  | "includeContent"
  | "apiKeyId"
  | "secretEncrypted"
  | "previousSecretEncrypted"
  | "previousSecretExpiresAt"
> & { keyActive: boolean } & CircuitState;

/**
 * The endpoint, if enabled, and whether the key that made it is active: one statement, which each run pays for.
 */
async function enabledEndpoint(endpointId: string, orgId: string | null): Promise<DeliveringEndpoint | null> {
  const [endpoint] = await queryRows<DeliveringEndpoint>(
    Prisma.sql`SELECT w.id, w.org_id AS "orgId", w.url, w.include_content AS "includeContent",
                      w.api_key_id AS "apiKeyId", w.secret_encrypted AS "secretEncrypted",
                      w.previous_secret_encrypted AS "previousSecretEncrypted",
                      w.previous_secret_expires_at AS "previousSecretExpiresAt", ${CREATOR_KEY_ACTIVE} AS "keyActive",
                      ${CIRCUIT_COLUMNS}
               FROM webhook_endpoints w
               WHERE w.id = ${endpointId} AND w.enabled ${orgId ? Prisma.sql`AND w.org_id = ${orgId}` : Prisma.empty}`,
  );
  return endpoint ?? null;
}

/**
 * The first pending deliveries of each namespace (its ordering group), oldest first; of a namespace whose
 * first one waits for its retry, that one alone. Each namespace's are found by an index walk (a recursive query
 * over the distinct groups), so a namespace that waits for a retry with thousands behind it does not hide the
 * others, and costs one row. Only settled events are sent (SETTLED); `unsettledSince` is when the oldest pending
 * delivery not settled yet was written, in any namespace (behind settled ones too: ordered by transaction, the
 * settled come first), found by the same index from the oldest open transaction's id.
 */
async function pendingByNamespace(
  endpoint: DeliveringEndpoint,
): Promise<{ groups: PendingDelivery[][]; unsettledSince: Date | undefined }> {
  const ofGroup = Prisma.sql`d.endpoint_id = ${endpoint.id} AND d.status = 'pending'
                             AND d.order_key = groups.order_key`;
  const rows = await queryRows<
    (PendingDelivery | { delivery_id: null }) & { order_key: string; unsettled_since: Date | null }
  >(
    Prisma.sql`WITH RECURSIVE groups AS (
       (SELECT order_key FROM webhook_deliveries
        WHERE endpoint_id = ${endpoint.id} AND status = 'pending' ORDER BY order_key LIMIT 1)
       UNION ALL
       SELECT (SELECT d.order_key FROM webhook_deliveries d
               WHERE d.endpoint_id = ${endpoint.id} AND d.status = 'pending' AND d.order_key > groups.order_key
               ORDER BY d.order_key LIMIT 1)
       FROM groups WHERE groups.order_key IS NOT NULL
     )
     SELECT groups.order_key, unsettled.unsettled_since, batch.* FROM groups
     CROSS JOIN LATERAL (
       SELECT d.next_attempt_at <= now() AS due FROM webhook_deliveries d
       WHERE ${ofGroup} ORDER BY d.txid, d.seq LIMIT 1
     ) head
     LEFT JOIN LATERAL (
       SELECT d.created_at AS unsettled_since FROM webhook_deliveries d
       WHERE ${ofGroup} AND d.txid >= ${SETTLED_BEFORE_TXID}
       ORDER BY d.txid, d.seq LIMIT 1
     ) unsettled ON true
     LEFT JOIN LATERAL (
       SELECT d.id AS delivery_id, d.attempts, d.next_attempt_at, ${Prisma.raw(EVENT_COLUMNS)}
       FROM webhook_deliveries d
       JOIN events e ON e.id = d.event_id
       ${endpointContentJoin(endpoint)}
       WHERE ${ofGroup} AND ${SETTLED}
       ORDER BY d.txid, d.seq
       LIMIT CASE WHEN head.due THEN ${BATCH_PER_NAMESPACE} ELSE 1 END
     ) batch ON true
     WHERE groups.order_key IS NOT NULL`,
  );
  const groups = new Map<string, PendingDelivery[]>();
  let unsettledSince: Date | undefined;
  for (const row of rows) {
    if (row.delivery_id !== null) groups.set(row.order_key, [...(groups.get(row.order_key) ?? []), row]);
    if (row.unsettled_since && (!unsettledSince || row.unsettled_since < unsettledSince))
      unsettledSince = row.unsettled_since;
  }
  return { groups: [...groups.values()], unsettledSince };
}

/**
 * One namespace's deliveries, one after another, until one fails (it is retried before any after it). A 2xx is
 * recorded before the next is sent, and before the circuit hears of it: a crash, or a circuit update that fails
 * (a busy database), then sends again only what was not answered, never a delivery already answered.
 */
async function deliverInOrder(endpoint: DeliveringEndpoint, group: PendingDelivery[]) {
  for (const delivery of group) {
    if (delivery.next_attempt_at.getTime() > Date.now()) return "waiting" as const;
    const body = JSON.stringify(webhookMessage(delivery, endpoint.includeContent));
    const result = await whileSending(() => send(endpoint, delivery.id, body));
    if (!result.delivered) {
      await recordCircuit(endpoint, result);
      return await recordFailure(endpoint, delivery, result);
    }
    await recordDelivered({
      orgId: endpoint.orgId,
      deliveryId: delivery.delivery_id,
      status: result.status,
      latencyMs: result.latencyMs,
      behind: Date.now() - delivery.created_at.getTime() > AHEAD_OF_WRITES_AFTER_MS,
    });
    await recordCircuit(endpoint, result);
  }
  return "delivered" as const;
}

/**
 * Tells the endpoint's circuit how an attempt went: one without an answer counts toward opening it; an answer
 * closes it, written only when the endpoint was failing (a healthy endpoint's deliveries pay no statement).
 * A failure here is logged, not thrown: the attempt's own record matters more, and the next attempt's outcome
 * writes the circuit again (a missed count only delays an opening by one attempt).
 */
async function recordCircuit(endpoint: DeliveringEndpoint, result: SendResult) {
  try {
    if (result.status === null) {
      endpoint.consecutiveFailures += 1;
      endpoint.circuitTripped = await recordNoAnswer(endpoint);
    } else if (endpoint.consecutiveFailures > 0 || endpoint.circuitTripped) {
      await closeCircuit(endpoint);
      endpoint.consecutiveFailures = 0;
      endpoint.circuitTripped = false;
    }
  } catch (error) {
    console.error(`[memgw] updating webhook endpoint ${endpoint.id}'s circuit failed:`, error);
  }
}

/** The seconds to wait after each failed attempt; past the last, the endpoint is disabled. */
function retrySchedule(): number[] {
  return setting("WEBHOOK_RETRY_SCHEDULE");
}

async function recordFailure(endpoint: DeliveringEndpoint, delivery: PendingDelivery, result: SendResult) {
  const prisma = await db();
  const schedule = retrySchedule();
  const attempts = delivery.attempts + 1;
  const givingUp = attempts > schedule.length;
  const waitSeconds = givingUp ? 0 : schedule[attempts - 1];
  const [recorded] = await prisma.$queryRaw<{ first_failed_at: Date; now: Date }[]>(
    Prisma.sql`UPDATE webhook_deliveries
               SET status = ${givingUp ? "failed" : "pending"}, attempts = ${attempts},
                   response_status = ${result.status}, latency_ms = ${result.latencyMs}, last_error = ${result.error},
                   first_failed_at = COALESCE(first_failed_at, now()),
                   next_attempt_at = now() + ${waitSeconds} * interval '1 second', updated_at = now()
               WHERE id = ${delivery.delivery_id} AND status = 'pending'
               RETURNING first_failed_at, now() AS now`,
  );
  // A delivery no longer pending (sent again meanwhile) is not this run's to give up on.
  if (!givingUp || !recorded) return "failed" as const;
  // The time the failures took, from the first to this one: the schedule's sum is only the least it can be
  // (a backlog, a server that was down or a redelivery stretch it).
  const spanSeconds = (recorded.now.getTime() - recorded.first_failed_at.getTime()) / 1000;
  await disableEndpoint(
    endpoint,
    `Delivering event ${delivery.id} failed ${attempts} times over ${describeSpan(spanSeconds)}; the last ` +
      `attempt: ${result.error}`,
  );
  return "disabled" as const;
}

/** A duration in the unit a person would use: "less than a second", "40 seconds", "12 minutes", "3 days". */
function describeSpan(seconds: number): string {
  if (seconds < 1) return "less than a second";
  if (seconds >= 2 * 86_400) return `${Math.round(seconds / 86_400)} days`;
  if (seconds >= 2 * 3_600) return `${Math.round(seconds / 3_600)} hours`;
  if (seconds >= 2 * 60) return `${Math.round(seconds / 60)} minutes`;
  const whole = Math.round(seconds);
  return `${whole} ${whole === 1 ? "second" : "seconds"}`;
}

export interface SendResult {
  delivered: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
}

/** POSTs a signed message to the endpoint: delivered on a 2xx answer; anything else fails, said in a sentence. */
export async function send(
  endpoint: Pick<
    WebhookEndpoint,
    "id" | "orgId" | "url" | "secretEncrypted" | "previousSecretEncrypted" | "previousSecretExpiresAt"
  >,
  messageId: string,
  body: string,
): Promise<SendResult> {
  try {
    const answer = await postOutbound(
      endpoint.url,
      body,
      webhookHeaders(endpoint, messageId, body),
      setting("WEBHOOK_TIMEOUT_SECONDS") * 1000,
    );
    const delivered = answer.status >= 200 && answer.status < 300;
    const redirect = answer.status >= 300 && answer.status < 400;
    return {
      delivered,
      status: answer.status,
      latencyMs: answer.latencyMs,
      error: delivered
        ? null
        : redirect
          ? `HTTP ${answer.status}: redirects are not followed (give the final URL).`
          : `HTTP ${answer.status}.`,
    };
  } catch (error) {
    const latencyMs = error instanceof PostFailedError ? error.latencyMs : 0;
    return { delivered: false, status: null, latencyMs, error: (error as Error).message };
  }
}

async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * Queues the delivery job of every enabled endpoint with a due delivery and no job: what a job that had just
 * finished when its endpoint's next events were written left behind, and what waits after a restart. Endpoints
 * whose key expired are disabled (a revoked key's are disabled with the revocation).
 */
export async function queueLeftBehindDeliveries(): Promise<void> {
  const prisma = await db();
  const orphaned = await prisma.$queryRaw<{ id: string; org_id: string; url: string }[]>(
    Prisma.sql`SELECT w.id, w.org_id, w.url FROM webhook_endpoints w WHERE w.enabled AND NOT ${CREATOR_KEY_ACTIVE}`,
  );
  for (const endpoint of orphaned)
    await disableEndpoint({ id: endpoint.id, orgId: endpoint.org_id, url: endpoint.url }, KEY_ENDED);
  await prisma.$executeRaw(
    Prisma.sql`INSERT INTO jobs (id, org_id, kind, key, payload, run_after, max_attempts, updated_at)
     SELECT 'job_' || replace(gen_random_uuid()::text, '-', ''), w.org_id, ${WEBHOOK_DELIVERY_JOB},
            ${webhookJobKey(Prisma.sql`w.id`)}, jsonb_build_object('endpoint_id', w.id), now(), 5, now()
     FROM webhook_endpoints w
     WHERE w.enabled AND (w.circuit_open_until IS NULL OR w.circuit_open_until <= now())
       AND EXISTS (SELECT 1 FROM webhook_deliveries d
                                 WHERE d.endpoint_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= now())
     ON CONFLICT (key) WHERE status IN ('queued', 'running') DO NOTHING`,
  );
}

/** How often workers look for delivery jobs queued elsewhere (another instance, or before a commit). */
const DELIVERY_POLL_MS = 250;
const SWEEP_MS = 2_000;

/** Starts this process's delivery workers and the sweep for left-behind deliveries; returns what stops them. */
export function startWebhookDelivery(): () => Promise<void> {
  // Several workers: a slow receiver holds one, not the others; and one organization's endpoints hold at most
  // their cap of them (across instances), so that its dead endpoints never delay another organization's.
  const perOrg = setting("WEBHOOK_DELIVERY_WORKERS_PER_ORG");
  const stopWorkers = startJobWorker(webhookJobRunners, {
    workers: setting("WEBHOOK_DELIVERY_WORKERS"),
    pollIntervalMs: DELIVERY_POLL_MS,
    within: onBackgroundConnections,
    perOrg,
  });
  const sweep = setInterval(() => {
    void (async () => {
      if (await claimScheduledRun("webhook-delivery-sweep", SWEEP_MS)) await queueLeftBehindDeliveries();
    })().catch((error) => console.error("[memgw] the webhook delivery sweep failed (it runs again):", error));
  }, SWEEP_MS);
  sweep.unref();
  return async () => {
    clearInterval(sweep);
    await stopWorkers();
  };
}
