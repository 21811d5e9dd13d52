import { z } from "zod";

/**
 * Every kind of change an application can hear about (GET /events, webhooks). A memory's events carry its
 * namespace, identity and scopes; the others what they are about.
 */
export const EVENT_TYPES = [
  "memory.created",
  "memory.updated",
  "memory.deleted",
  "memory.expired",
  "memory.superseded",
  "memory.inference.completed",
  "memory.inference.failed",
  "conversation.appended",
  "namespace.created",
  "namespace.updated",
  "namespace.deleted",
  "erasure.completed",
  "import.completed",
  "import.failed",
  "integration.sync.completed",
  "integration.sync.failed",
  "connection.revoked",
  "api_key.created",
  "api_key.revoked",
] as const;
export const EventType = z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(", ")}` });
export type EventType = z.infer<typeof EventType>;

/** Why memories were deleted (memory.deleted's `reason`). */
export const DELETION_REASONS = [
  "forget",
  "expiry",
  "erasure",
  "namespace_deletion",
  "sync",
  "integration_deleted",
  "document_deleted",
  "document_replaced",
  "write_rolled_back",
] as const;
export type DeletionReason = (typeof DELETION_REASONS)[number];

/** Events that are a memory's own: their content may be sent to a subscriber that asks for it. */
export const MEMORY_EVENT_TYPES: readonly EventType[] = [
  "memory.created",
  "memory.updated",
  "memory.deleted",
  "memory.expired",
  "memory.superseded",
  "memory.inference.completed",
  "memory.inference.failed",
];
