import type { IntegrationConnection } from "@/lib/generated/prisma/client";
import type { ProviderId } from "../provider";
import type { ConnectionJson } from "../schemas";

export function connectionJson(connection: IntegrationConnection): ConnectionJson {
  return {
    id: connection.id,
    provider: connection.provider as ProviderId,
    namespace_id: connection.namespaceId,
    status: connection.status as ConnectionJson["status"],
    options: connection.options as Record<string, unknown>,
    account: connection.account,
    last_sync_at: connection.lastSyncAt?.toISOString() ?? null,
    documents_synced: connection.documentCount,
    last_error: connection.lastError,
    created_at: connection.createdAt.toISOString(),
    updated_at: connection.updatedAt.toISOString(),
  };
}
