import type { WebhookEndpoint } from "@/lib/generated/prisma/client";
import { EventType } from "@/lib/event-recording/event-types";
import type { WebhookEndpointJson } from "./schemas";
import { secretHint } from "./webhook-secret";

export function webhookEndpointJson(endpoint: WebhookEndpoint): WebhookEndpointJson {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    event_types: (endpoint.eventTypes ?? []).map((type) => EventType.parse(type)),
    namespace_ids: endpoint.namespaceIds ?? [],
    include_content: endpoint.includeContent,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    disabled_at: endpoint.disabledAt?.toISOString() ?? null,
    circuit_state: endpoint.enabled ? circuitState(endpoint.circuitOpenUntil) : "closed",
    circuit_open_until: (endpoint.enabled && endpoint.circuitOpenUntil?.toISOString()) || null,
    consecutive_failures: endpoint.consecutiveFailures,
    secret_hint: secretHint(endpoint),
    previous_secret_expires_at:
      endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > new Date()
        ? endpoint.previousSecretExpiresAt.toISOString()
        : null,
    created_by_api_key_id: endpoint.apiKeyId,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

/**
 * The circuit as of now: opened (circuit_open_until set) and waiting, or waiting for its trial request. A
 * disabled endpoint's is closed: nothing is sent to it (its circuit is reset when disabled; one disabled before
 * that reset existed still holds its old columns).
 */
function circuitState(openUntil: Date | null): WebhookEndpointJson["circuit_state"] {
  if (!openUntil) return "closed";
  return openUntil.getTime() > Date.now() ? "open" : "half_open";
}
