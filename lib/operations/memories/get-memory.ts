import { getMemory } from "@/lib/memory/read/get-memory";
import { MemoryIdParams, MemorySchema, memoryJson } from "@/lib/memory/common/schemas";
import { withSupersedes } from "@/lib/memory/validity/supersession";
import { operation } from "../operation";

export const getMemoryOperation = operation({
  http: {
    method: "GET",
    path: "/memories/{id}",
    tag: "Memory",
    summary: "One memory, in a namespace granted to the key and within its scopes",
    errors: [404],
  },
  permission: "NAMESPACE_READ",
  params: MemoryIdParams,
  response: MemorySchema,
  activity: "get_memory",
  run: async ({ principal, params, activity }) =>
    memoryJson(await withSupersedes(await getMemory(principal, params.id, activity))),
});
