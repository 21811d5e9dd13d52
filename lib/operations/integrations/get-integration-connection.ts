import { connectionJson } from "@/lib/integrations/connections/connection-json";
import { getConnection } from "@/lib/integrations/connections/get-connection";
import { ConnectionIdParams, ConnectionSchema } from "@/lib/integrations/schemas";
import { operation } from "../operation";

export const getIntegrationConnectionOperation = operation({
  http: {
    method: "GET",
    path: "/integrations/connections/{id}",
    tag: "Integrations",
    summary: "One connection: status, last sync, documents synced, last error",
    errors: [404],
  },
  permission: "INTEGRATION_MANAGE",
  namespaceWide: "managing integrations",
  params: ConnectionIdParams,
  response: ConnectionSchema,
  run: async ({ principal, params }) => connectionJson(await getConnection(principal, params.id)),
});
