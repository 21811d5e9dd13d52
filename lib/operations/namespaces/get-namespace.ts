import { getNamespace } from "@/lib/namespaces/namespaces";
import { NamespaceIdParams, NamespaceSchema, namespaceJson } from "@/lib/namespaces/schemas";
import { operation } from "../operation";

export const getNamespaceOperation = operation({
  http: {
    method: "GET",
    path: "/namespaces/{id}",
    tag: "Namespaces",
    summary: "Get a namespace by id",
    errors: [404],
  },
  permission: "NAMESPACE_READ",
  params: NamespaceIdParams,
  response: NamespaceSchema,
  run: async ({ principal, params }) => namespaceJson(await getNamespace(principal, params.id)),
});
