import { deleteGrant } from "@/lib/namespaces/namespaces";
import { DeletedSchema, GrantIdParams } from "@/lib/namespaces/schemas";
import { operation } from "../operation";

export const deleteGrantOperation = operation({
  http: {
    method: "DELETE",
    path: "/namespaces/{id}/grants/{grantId}",
    tag: "Grants",
    summary: "Remove a grant",
    errors: [404],
  },
  permission: "NAMESPACE_MANAGE",
  namespaceWide: "removing a grant",
  params: GrantIdParams,
  response: DeletedSchema,
  run: ({ principal, params }) => deleteGrant(principal, params.id, params.grantId),
});
