import { createNamespace } from "@/lib/namespaces/namespaces";
import { CreateNamespaceBody, NamespaceSchema, namespaceJson } from "@/lib/namespaces/schemas";
import { operation } from "../operation";

export const createNamespaceOperation = operation({
  http: {
    method: "POST",
    path: "/namespaces",
    tag: "Namespaces",
    summary: "Create a namespace; the creating key is granted access to it",
    errors: [409],
    idempotent: true,
  },
  permission: "NAMESPACE_MANAGE",
  namespaceWide: "creating a namespace",
  body: CreateNamespaceBody,
  response: NamespaceSchema,
  successStatus: 201,
  run: async ({ principal, body }) => namespaceJson(await createNamespace(principal, body)),
});
