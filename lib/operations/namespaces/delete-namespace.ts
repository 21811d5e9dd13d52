import { deleteNamespace } from "@/lib/namespaces/namespaces";
import { DeletedSchema, NamespaceIdParams } from "@/lib/namespaces/schemas";
import { operation } from "../operation";

export const deleteNamespaceOperation = operation({
  http: {
    method: "DELETE",
    path: "/namespaces/{id}",
    tag: "Namespaces",
    summary: "Delete a namespace with everything in it and every grant to it",
    errors: [404],
  },
  permission: "NAMESPACE_MANAGE",
  namespaceWide: "deleting a namespace",
  params: NamespaceIdParams,
  response: DeletedSchema,
  run: ({ principal, params }) => deleteNamespace(principal, params.id),
});
