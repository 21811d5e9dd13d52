import { Page, PaginationQuery } from "@/lib/http/pagination";
import { listNamespaces } from "@/lib/namespaces/namespaces";
import { NamespaceSchema, namespaceJson } from "@/lib/namespaces/schemas";
import { operation } from "../operation";

export const listNamespacesOperation = operation({
  http: {
    method: "GET",
    path: "/namespaces",
    tag: "Namespaces",
    summary: "List the namespaces granted to the key",
  },
  permission: "NAMESPACE_READ",
  query: PaginationQuery,
  response: NamespaceSchema,
  paginated: true,
  async run({ principal, query }) {
    const { items, total } = await listNamespaces(principal, query);
    return new Page(items.map(namespaceJson), total, query);
  },
});
