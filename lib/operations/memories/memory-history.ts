import { Page, PaginationQuery } from "@/lib/http/pagination";
import { MemoryVersionSchema, versionJson } from "@/lib/memory/store/history";
import { memoryHistory } from "@/lib/memory/read/get-memory-history";
import { MemoryIdParams } from "@/lib/memory/common/schemas";
import { operation } from "../operation";

export const memoryHistoryOperation = operation({
  http: {
    method: "GET",
    path: "/memories/{id}/history",
    tag: "Memory",
    summary:
      "A memory's versions, newest first, the current one included: what each changed, who wrote it and when " +
      "(within the key's scopes)",
    errors: [404],
  },
  permission: "NAMESPACE_READ",
  params: MemoryIdParams,
  query: PaginationQuery,
  response: MemoryVersionSchema,
  paginated: true,
  activity: "memory_history",
  async run({ principal, params, query, activity }) {
    const { versions, total } = await memoryHistory(principal, params.id, query, activity);
    return new Page(versions.map(versionJson), total, query);
  },
});
