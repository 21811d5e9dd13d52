import type { WebhookEndpoint } from "@/lib/generated/prisma/client";
import { EventType } from "../recording/event-types";
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
