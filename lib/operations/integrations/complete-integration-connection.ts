import { completeConnection } from "@/lib/integrations/connections/complete-connection";
import { connectionJson } from "@/lib/integrations/connections/connection-json";
import { CompleteConnectionBody, ConnectionIdParams, ConnectionSchema } from "@/lib/integrations/schemas";
import { operation } from "../operation";

export const completeIntegrationConnectionOperation = operation({
  http: {
    method: "POST",
    path: "/integrations/connections/{id}/complete",
    tag: "Integrations",
    summary: "Finish connecting with the code and state the provider sent back; queues the first sync",
    errors: [404, 409, 502],
  },
  permission: "INTEGRATION_MANAGE",
  namespaceWide: "connecting an integration",
  params: ConnectionIdParams,
  body: CompleteConnectionBody,
  response: ConnectionSchema,
  run: async ({ principal, params, body }) => connectionJson(await completeConnection(principal, params.id, body)),
});
