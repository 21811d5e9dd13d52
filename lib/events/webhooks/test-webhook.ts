import type { Principal } from "@/lib/auth/principal";
import { newId } from "@/lib/ids";
import { send } from "./deliver";
import { findEndpoint } from "./webhook-access";

/**
 * Sends a signed `webhook.test` message to the endpoint now (enabled or not: a person checks a fix before
 * enabling it again) and says how the receiver answered. It is no event: not in the feed or the delivery log.
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
  return {
    delivered: result.delivered,
    response_status: result.status,
    latency_ms: result.latencyMs,
    error: result.error,
  };
}
