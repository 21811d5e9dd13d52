import type { NewEvent } from "./record-events";

/** The event of a key's end: api_key.revoked, or connection.revoked for a connected MCP client's key. */
export function revokedKeyEvent(
  key: { id: string; name: string; oauthClientId: string | null },
  reason: string,
  namespaceId: string | null = null,
): NewEvent {
  return key.oauthClientId
    ? { type: "connection.revoked", namespaceId, data: { connection_id: key.id, client_name: key.name, reason } }
    : { type: "api_key.revoked", namespaceId, data: { api_key_id: key.id, name: key.name, reason } };
}
