import type { z } from "zod";

/**
 * Fields other memory tools (Mem0, Zep, Letta, LangChain's stores) name differently, with what this API
 * calls them: a body or import line written for one of them is refused with the field to use instead,
 * rather than "Unrecognized key".
 */
const OTHER_TOOLS_FIELDS: Record<string, string> = {
  user_id: "use identity_id",
  userId: "use identity_id",
  identity: "use identity_id",
  agent_id: 'use scopes (e.g. {"agent": "…"}) or metadata',
  app_id: 'use scopes (e.g. {"app": "…"}) or metadata',
  run_id: "use metadata, or session_id for the turns of a conversation",
  memory: "use content",
  text: "use content",
  data: "use content",
  message: "use content",
  created_at: "use occurred_at",
  timestamp: "use occurred_at",
  expiration_date: "use expires_at",
  expires: "use expires_at",
  ttl: "use ttl_seconds",
  tags: "use scopes or metadata",
  categories: "use scopes or metadata",
  labels: "use scopes or metadata",
  namespace: "use namespace_id",
};

/** What to say of an unknown field: which field is meant when another tool names it so. */
export function unknownFieldMessage(key: string, hints: Record<string, string> = {}): string {
  // Own keys only: `constructor` or `toString` in a body would otherwise find Object.prototype's function.
  const hint = Object.hasOwn(hints, key)
    ? hints[key]
    : Object.hasOwn(OTHER_TOOLS_FIELDS, key)
      ? OTHER_TOOLS_FIELDS[key]
      : undefined;
  return hint ? `${key}: unknown field; ${hint}` : `${key}: unknown field`;
}

/**
 * A strict object's `error` option: unknown fields are named one by one, each with the field meant when
 * it is another tool's name for one (`user_id: unknown field; use identity_id`). `hints` adds or
 * overrides names for one schema.
 */
export function unknownFields(hints: Record<string, string> = {}) {
  return (issue: z.core.$ZodRawIssue) => {
    if (issue.code !== "unrecognized_keys") return undefined;
    return issue.keys.map((key) => unknownFieldMessage(key, hints)).join("; ");
  };
}
