// An endpoint's circuit breaker (its state is in webhook_endpoints, shared by every instance). An endpoint that
// does not answer holds a delivery worker of its organization for WEBHOOK_TIMEOUT_SECONDS at every attempt: after
// WEBHOOK_CIRCUIT_FAILURES of those in a row its circuit opens, and its deliveries wait without a request and
// without a worker (deliver.ts) until the cooldown ends; then a single trial request decides. The cooldown doubles
// at each opening in a row, up to an hour. Only attempts that got no answer count: an endpoint that answers an
// error at once costs its worker little, and the retry schedule already spaces its attempts.
import { setting } from "@/lib/config";
import { queryRows } from "@/lib/db";
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
               WHERE id = ${endpoint.id} AND org_id = ${endpoint.orgId}
               RETURNING circuit_open_until IS NOT NULL AND circuit_open_until > now() AS open`,
  );
  return row?.open ?? false;
}

/** An attempt was answered (any HTTP status): the endpoint's run of failures ends and its circuit closes. */
export async function recordAnswered(endpoint: { id: string; orgId: string }): Promise<void> {
  await queryRows(
    Prisma.sql`UPDATE webhook_endpoints
               SET consecutive_failures = 0, circuit_openings = 0, circuit_open_until = NULL
               WHERE id = ${endpoint.id} AND org_id = ${endpoint.orgId}
                 AND (consecutive_failures > 0 OR circuit_open_until IS NOT NULL)`,
  );
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
