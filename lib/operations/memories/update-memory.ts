import { updateMemory } from "@/lib/memory/write/update-memory";
import { MemoryIdParams, MemorySchema, memoryJson, PatchMemoryBody } from "@/lib/memory/common/schemas";
import { withSupersedes } from "@/lib/memory/validity/supersession";
import { operation } from "../operation";

export const updateMemoryOperation = operation({
  http: {
    method: "PATCH",
    path: "/memories/{id}",
    tag: "Memory",
    summary:
      "Change a memory's content, metadata, scopes, identity, event time, expiry or validity (valid_at, " +
      "invalid_at, fact_key); new content is embedded again; the version it replaces is kept " +
      "(GET /memories/{id}/history)",
    errors: [404, 409, 502, 503],
    idempotent: true,
  },
  permission: "NAMESPACE_WRITE",
  params: MemoryIdParams,
  body: PatchMemoryBody,
  response: MemorySchema,
  activity: "update_memory",
  async run({ principal, params, body, activity }) {
    const memory = await updateMemory(principal, params.id, body, activity);
    activity.details = { version: memory.version };
    return memoryJson(await withSupersedes(memory));
  },
});
