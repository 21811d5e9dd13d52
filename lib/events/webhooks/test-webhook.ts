import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { send } from "./deliver";
import { closeCircuit } from "./endpoint-circuit";
import { queueDeliveryJob } from "./queue-delivery-job";
import { findEndpoint } from "./webhook-access";

/**
 * Sends a signed `webhook.test` message to the endpoint now (enabled or not: a person checks a fix before
 * enabling it again) and says how the receiver answered. It is no event: not in the feed or the delivery log.
 * An answer closes the endpoint's circuit (endpoint-circuit.ts) and ends its run of failures, opened or not yet,
 * and its waiting deliveries go now; no answer leaves the circuit as it was (a person's test is not one of its
 * deliveries' attempts).
 */
export async function testWebhook(principal: Principal, id: string) {
  const endpoint = await findEndpoint(principal, id);
  const messageId = `${newId("evt")}_test`;
  const body = JSON.stringify({
    type: "webhook.test",
    timestamp: new Date().toISOString(),
    data: { endpoint_id: endpoint.id, message: "A test message from Memory Gateway." },
  });
  const result = await send(endpoint, messageId, body);
  if (result.status !== null) {
    await closeCircuit(endpoint);
    const prisma = await db();
    if (endpoint.circuitOpenUntil && endpoint.enabled)
      await prisma.$transaction((tx) => queueDeliveryJob(tx, endpoint));
  }
  return {
    delivered: result.delivered,
    response_status: result.status,
    latency_ms: result.latencyMs,
    error: result.error,
  };
}
