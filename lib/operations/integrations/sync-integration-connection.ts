import { connectionJson } from "@/lib/integrations/connections/connection-json";
import { requestSync } from "@/lib/integrations/connections/request-sync";
import { ConnectionIdParams, ConnectionSchema } from "@/lib/integrations/schemas";
import { operation } from "../operation";

export const syncIntegrationConnectionOperation = operation({
  http: {
    method: "POST",
    path: "/integrations/connections/{id}/sync",
    tag: "Integrations",
    summary: "Queue a sync now (409 while one is queued or running)",
    errors: [404, 409],
  },
  permission: "INTEGRATION_MANAGE",
  namespaceWide: "syncing an integration",
  params: ConnectionIdParams,
  response: ConnectionSchema,
  run: async ({ principal, params }) => connectionJson(await requestSync(principal, params.id)),
});
