// Memories: remember, recall, ask, forget, and reading and changing one; the erasure receipts.
// Part of the operation catalogue (lib/operations/catalogue.ts), which gathers every area's in order.
import { z } from "zod";
import { CursorPage, Page, PaginationQuery } from "@/lib/http/pagination";
import { ask } from "@/lib/memory/answer/ask";
import { ListMemoriesQuery, listMemories } from "@/lib/memory/read/list";
import { forgetResultJson } from "@/lib/erasures/forget-result";
import { forgetWithReceipt } from "@/lib/erasures/forget-with-receipt";
import { MemoryVersionSchema, versionJson } from "@/lib/memory/store/history";
import { getMemory } from "@/lib/memory/read/get-memory";
import { memoryHistory } from "@/lib/memory/read/get-memory-history";
import { memoryItems } from "@/lib/memory/write/memory-items";
import { remember } from "@/lib/memory/write/remember";
import { updateMemory } from "@/lib/memory/write/update-memory";
import { ForgetBody } from "@/lib/memory/forget/forget-body";
import { matchJson, recall } from "@/lib/memory/search/recall";
import {
  AskBody,
  AskResultSchema,
  ForgetResultSchema,
  MatchSchema,
  MemoryIdParams,
  MemorySchema,
  memoryJson,
  PatchMemoryBody,
  RecallBody,
  RememberBody,
} from "@/lib/memory/common/schemas";
import { ErasureSchema, erasureJson } from "@/lib/erasure-receipts/erasure-json";
import { listErasures, ListErasuresQuery } from "@/lib/erasure-receipts/list-erasures";
import { operation } from "../operation";

export const memoriesOperations = {
  // The memory operations note identity and counts for their activity row.
  remember: operation({
    permission: "NAMESPACE_WRITE",
    body: RememberBody,
    response: z.union([MemorySchema, z.array(MemorySchema)]),
    successStatus: 201,
    activity: "remember",
    async run({ principal, body, activity }) {
      const items = memoryItems(body);
      // One activity row per request: a batch whose items all name the same identity is that identity's.
      const identities = new Set(items.map((item) => item.identity_id));
      activity.identityId = identities.size === 1 ? [...identities][0] : undefined;
      const { memories } = await remember(principal, body, items, activity, {
        sessionId: body.session_id,
        allowDuplicate: body.allow_duplicate,
      });
      activity.details = { memories: memories.length };
      return body.content !== undefined ? memoryJson(memories[0]) : memories.map(memoryJson);
    },
  }),
  recall: operation({
    permission: "NAMESPACE_READ",
    body: RecallBody,
    response: z.array(MatchSchema),
    activity: "recall",
    async run({ principal, body, activity }) {
      activity.identityId = body.identity_id;
      const { matches } = await recall(principal, body, activity);
      activity.details = { matches: matches.length };
      return matches.map(matchJson);
    },
  }),
  ask: operation({
    permission: "NAMESPACE_READ",
    body: AskBody,
    response: AskResultSchema,
    activity: "ask",
    async run({ principal, body, activity }) {
      activity.identityId = body.identity_id;
      return ask(principal, body, activity);
    },
  }),
  forget: operation({
    permission: "NAMESPACE_WRITE",
    body: ForgetBody,
    response: ForgetResultSchema,
    activity: "forget",
    async run({ principal, body, activity }) {
      activity.identityId = body.identity_id;
      const forgotten = await forgetWithReceipt(principal, body, activity);
      activity.details = { deleted: forgotten.deleted };
      return forgetResultJson(forgotten);
    },
  }),
  // Erasure receipts are the organization operator's proof that deletion requests were served.
  listErasures: operation({
    permission: "NAMESPACE_MANAGE",
    namespaceWide: "reading erasure receipts",
    query: ListErasuresQuery,
    response: ErasureSchema,
    paginated: true,
    async run({ principal, query }) {
      const { items, total } = await listErasures(principal, query);
      return new Page(items.map(erasureJson), total, query);
    },
  }),
  getMemory: operation({
    permission: "NAMESPACE_READ",
    params: MemoryIdParams,
    response: MemorySchema,
    activity: "get_memory",
    run: async ({ principal, params, activity }) => memoryJson(await getMemory(principal, params.id, activity)),
  }),
  updateMemory: operation({
    permission: "NAMESPACE_WRITE",
    params: MemoryIdParams,
    body: PatchMemoryBody,
    response: MemorySchema,
    activity: "update_memory",
    async run({ principal, params, body, activity }) {
      const memory = await updateMemory(principal, params.id, body, activity);
      activity.details = { version: memory.version };
      return memoryJson(memory);
    },
  }),
  memoryHistory: operation({
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
  }),
  listMemories: operation({
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
  }),
};
