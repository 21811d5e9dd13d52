import { createGrant } from "@/lib/namespaces/namespaces";
import { CreateGrantBody, GrantSchema, grantJson, NamespaceIdParams } from "@/lib/namespaces/schemas";
import { operation } from "../operation";

export const createGrantOperation = operation({
  http: {
    method: "POST",
    path: "/namespaces/{id}/grants",
    tag: "Grants",
    summary: "Grant an API key or a user of the same organization access to a namespace",
    errors: [404, 409],
  },
  permission: "NAMESPACE_MANAGE",
  namespaceWide: "granting access to a namespace",
  params: NamespaceIdParams,
  body: CreateGrantBody,
  response: GrantSchema,
  successStatus: 201,
  run: async ({ principal, params, body }) => grantJson(await createGrant(principal, params.id, body)),
});
