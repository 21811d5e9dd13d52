// An endpoint's circuit breaker (its state is in webhook_endpoints, shared by every instance). An endpoint that
// does not answer holds a delivery worker of its organization for WEBHOOK_TIMEOUT_SECONDS at every attempt: after
// WEBHOOK_CIRCUIT_FAILURES of those in a row its circuit opens, and its deliveries wait without a request and
// without a worker (deliver.ts) until the cooldown ends; then a single trial request decides. The cooldown doubles
// at each opening in a row, up to an hour. Only attempts that got no answer count: an endpoint that answers an
// error at once costs its worker little, and the retry schedule already spaces its attempts.
import { setting } from "@/lib/config";
import { queryRows, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/** The longest a circuit stays open before its next trial request. */
const COOLDOWN_AT_MOST_SECONDS = 3_600;

/**
 * Counts an attempt that got no answer (timeout, refused or reset connection, a name that does not resolve);
 * the one that reaches WEBHOOK_CIRCUIT_FAILURES opens the circuit, for WEBHOOK_CIRCUIT_COOLDOWN_SECONDS doubled
 * by each opening before it in a row (a failed trial opens it again). Returns whether the circuit is open now.
 * Attempts under way when it opened (an endpoint's namespaces are sent at once) do not open it again.
 */
export async function recordNoAnswer(endpoint: { id: string; orgId: string }): Promise<boolean> {
  const failures = setting("WEBHOOK_CIRCUIT_FAILURES");
  const cooldown = setting("WEBHOOK_CIRCUIT_COOLDOWN_SECONDS");
  const opening = Prisma.sql`(consecutive_failures + 1 >= ${failures}
                              AND (circuit_open_until IS NULL OR circuit_open_until <= now()))`;
  const [row] = await queryRows<{ open: boolean }>(
    Prisma.sql`UPDATE webhook_endpoints
               SET consecutive_failures = consecutive_failures + 1,
                   circuit_openings = CASE WHEN ${opening} THEN circuit_openings + 1 ELSE circuit_openings END,
                   circuit_open_until = CASE WHEN ${opening}
                     THEN now() + LEAST(${COOLDOWN_AT_MOST_SECONDS}::float8,
                                        ${cooldown}::float8 * power(2, LEAST(circuit_openings, 20)))
                                  * interval '1 second'
                     ELSE circuit_open_until END
               WHERE id = ${endpoint.id} AND org_id = ${endpoint.orgId} AND enabled
               RETURNING circuit_open_until IS NOT NULL AND circuit_open_until > now() AS open`,
  );
  // A disabled endpoint's circuit stays closed (closeCircuit): an attempt under way when it was disabled does not
  // open it again.
  return row?.open ?? false;
}

/**
 * Closes the circuit and forgets its run of failures: an attempt (a delivery or a person's test) was answered,
 * with any HTTP status; or a person enabled, disabled or moved the endpoint, whose circuit then starts afresh (a
 * disabled endpoint is sent nothing, so a circuit there would only say something stale). The one place these
 * columns are reset. In `tx` when given (the change that closes it), else a statement of its own.
 */
export async function closeCircuit(endpoint: { id: string; orgId: string }, tx?: Tx): Promise<void> {
  const statement = Prisma.sql`UPDATE webhook_endpoints
               SET consecutive_failures = 0, circuit_openings = 0, circuit_open_until = NULL
               WHERE id = ${endpoint.id} AND org_id = ${endpoint.orgId}
                 AND (consecutive_failures > 0 OR circuit_openings > 0 OR circuit_open_until IS NOT NULL)`;
  await (tx ? tx.$executeRaw(statement) : queryRows(statement));
}

/**
 * The cooldown ended and nothing is pending to be the trial: the circuit is no longer open, but its failures and
 * openings are kept, so the next delivery still goes alone (isTrial) and, unanswered, opens it again at once for
 * twice as long. Without this it would show half_open until the endpoint's next event, however late.
 */
export async function closeIdleCircuit(endpoint: { id: string; orgId: string }): Promise<void> {
  await queryRows(
    Prisma.sql`UPDATE webhook_endpoints SET circuit_open_until = NULL
               WHERE id = ${endpoint.id} AND org_id = ${endpoint.orgId} AND circuit_open_until <= now()`,
  );
}

/** Whether the next attempt goes alone: the circuit opened, or its failures reached the count that opens it. */
export function isTrial(circuit: CircuitState): boolean {
  return circuit.circuitTripped || circuit.consecutiveFailures >= setting("WEBHOOK_CIRCUIT_FAILURES");
}

/** The columns a delivery run reads of its endpoint's circuit (`w`: webhook_endpoints), with the database's clock. */
export const CIRCUIT_COLUMNS = Prisma.sql`w.consecutive_failures AS "consecutiveFailures",
  w.circuit_open_until IS NOT NULL AS "circuitTripped",
  GREATEST(0, ceil(extract(epoch FROM w.circuit_open_until - now()) * 1000))::int AS "circuitOpenForMs"`;

export interface CircuitState {
  consecutiveFailures: number;
  /** Opened and not closed since: open, or (circuitOpenForMs 0) waiting for its trial request. */
  circuitTripped: boolean;
  /** How much longer it is open (0: closed, or its cooldown is over). */
  circuitOpenForMs: number;
}
