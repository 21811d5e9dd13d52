import type { Scopes } from "@/lib/auth/scopes";
import { newId } from "@/lib/ids";
import type { MemoryItem, RememberBody } from "../common/schemas";
import { effectiveScopes } from "../common/scopes";
import { contentHash, expiryOf } from "./memory-fields";

/**
 * What remember stores for one memory: an item of a request, a conversation's message (with its role), or a fact a
 * chat model extracted from the memories in `derived_from` (lib/memory/inference).
 */
export type RememberItem = MemoryItem & { role?: string; derived_from?: string[] };

/**
 * The items of a remember request: a single `content`, a batch, or a conversation's messages, with the
 * top-level fields as defaults.
 */
export function memoryItems(body: RememberBody): RememberItem[] {
  const defaults = {
    metadata: body.metadata,
    scopes: body.scopes,
    identity_id: body.identity_id,
    occurred_at: body.occurred_at,
    expires_at: body.expires_at,
    ttl_seconds: body.ttl_seconds,
  };
  if (body.content !== undefined) {
    const { valid_at, fact_key, supersedes } = body;
    return [{ ...defaults, content: body.content, valid_at, fact_key, supersedes }];
  }
  if (body.messages !== undefined) {
    return body.messages.map((message) => ({
      ...defaults,
      content: message.content,
      role: message.role,
      metadata: message.metadata ?? defaults.metadata,
      occurred_at: message.occurred_at ?? defaults.occurred_at,
      valid_at: body.valid_at,
    }));
  }
  return body.memories!.map((item) => {
    const ownExpiry = item.expires_at !== undefined || item.ttl_seconds !== undefined;
    return {
      content: item.content,
      metadata: item.metadata ?? defaults.metadata,
      scopes: item.scopes ?? defaults.scopes,
      identity_id: item.identity_id ?? defaults.identity_id,
      occurred_at: item.occurred_at ?? defaults.occurred_at,
      valid_at: item.valid_at ?? body.valid_at,
      fact_key: item.fact_key,
      supersedes: item.supersedes,
      expires_at: ownExpiry ? item.expires_at : defaults.expires_at,
      ttl_seconds: ownExpiry ? item.ttl_seconds : defaults.ttl_seconds,
    };
  });
}

/**
 * What remember stores for an item, before deduplication and chunking: a new id, the key's scopes added to the
 * item's, event time (occurred_at, and valid_at defaulting to it) and expiry from `now`.
 */
export function candidateOf(keyScopes: Scopes, item: RememberItem, now: Date) {
  const occurredAt = item.occurred_at ? new Date(item.occurred_at) : now;
  return {
    id: newId("mem"),
    content: item.content,
    metadata: item.metadata ?? {},
    scopes: effectiveScopes(keyScopes, item.scopes),
    identityId: item.identity_id ?? null,
    role: item.role ?? null,
    occurredAt,
    expiresAt: expiryOf(item, now),
    contentHash: contentHash(item.content),
    validAt: item.valid_at ? new Date(item.valid_at) : occurredAt,
    factKey: item.fact_key ?? null,
    supersedes: item.supersedes ?? [],
    derivedFrom: item.derived_from ?? null,
  };
}
