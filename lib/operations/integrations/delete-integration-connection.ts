import { deleteConnection } from "@/lib/integrations/connections/delete-connection";
import { ConnectionIdParams, DeleteConnectionQuery, DeletedConnectionSchema } from "@/lib/integrations/schemas";
import { operation } from "../operation";

export const deleteIntegrationConnectionOperation = operation({
  http: {
    method: "DELETE",
    path: "/integrations/connections/{id}",
    tag: "Integrations",
    summary:
      "Revoke the token at the provider, delete the connection and, unless keep_memories=true, " +
      "every memory it brought",
    errors: [404],
  },
  permission: "INTEGRATION_MANAGE",
  namespaceWide: "deleting an integration",
  params: ConnectionIdParams,
  query: DeleteConnectionQuery,
  response: DeletedConnectionSchema,
  run: ({ principal, params, query }) => deleteConnection(principal, params.id, query.keep_memories),
});
