import { updateNamespace } from "@/lib/namespaces/namespaces";
import { NamespaceIdParams, NamespaceSchema, namespaceJson, UpdateNamespaceBody } from "@/lib/namespaces/schemas";
import { operation } from "../operation";

export const updateNamespaceOperation = operation({
  http: {
    method: "PATCH",
    path: "/namespaces/{id}",
    tag: "Namespaces",
    summary: "Change a namespace's name, description or external_reference_id",
    errors: [404, 409],
  },
  permission: "NAMESPACE_MANAGE",
  namespaceWide: "changing a namespace",
  params: NamespaceIdParams,
  body: UpdateNamespaceBody,
  response: NamespaceSchema,
  run: async ({ principal, params, body }) => namespaceJson(await updateNamespace(principal, params.id, body)),
});
