import { CursorPage } from "@/lib/http/pagination";
import { ListMemoriesQuery, listMemories } from "@/lib/memory/read/list";
import { MemorySchema, memoryJson } from "@/lib/memory/common/schemas";
import { operation } from "../operation";

export const listMemoriesOperation = operation({
  http: {
    method: "GET",
    path: "/memories",
    tag: "Memory",
    summary:
      "A namespace's memories, newest first, a page at a time (follow pagination.nextCursor), " +
      "filtered by identity, scope pairs and metadata values, within the key's scopes",
    errors: [404],
  },
  permission: "NAMESPACE_READ",
  query: ListMemoriesQuery,
  response: MemorySchema,
  paginated: "cursor",
  activity: "list_memories",
  async run({ principal, query, activity }) {
    const page = await listMemories(principal, query, activity);
    activity.details = { memories: page.items.length };
    return new CursorPage(page.items.map(memoryJson), page.total, page);
  },
});
