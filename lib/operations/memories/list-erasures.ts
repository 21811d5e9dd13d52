import { Page } from "@/lib/http/pagination";
import { ErasureSchema, erasureJson } from "@/lib/erasure-receipts/erasure-json";
import { listErasures, ListErasuresQuery } from "@/lib/erasure-receipts/list-erasures";
import { operation } from "../operation";

export const listErasuresOperation = operation({
  http: {
    method: "GET",
    path: "/erasures",
    tag: "Erasures",
    summary:
      "Erasure receipts, newest first: every forget and namespace deletion, with its selector, how many " +
      "memories and chunks it deleted from which namespaces, who asked and when (never content)",
  },
  permission: "NAMESPACE_MANAGE",
  namespaceWide: "reading erasure receipts",
  query: ListErasuresQuery,
  response: ErasureSchema,
  paginated: true,
  async run({ principal, query }) {
    const { items, total } = await listErasures(principal, query);
    return new Page(items.map(erasureJson), total, query);
  },
});
