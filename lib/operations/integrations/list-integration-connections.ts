import { Page } from "@/lib/http/pagination";
import { connectionJson } from "@/lib/integrations/connections/connection-json";
import { listConnections } from "@/lib/integrations/connections/list-connections";
import { ConnectionSchema, ListConnectionsQuery } from "@/lib/integrations/schemas";
import { operation } from "../operation";

export const listIntegrationConnectionsOperation = operation({
  http: {
    method: "GET",
    path: "/integrations/connections",
    tag: "Integrations",
    summary: "The connections of the namespaces the key may use, newest first",
  },
  permission: "INTEGRATION_MANAGE",
  namespaceWide: "managing integrations",
  query: ListConnectionsQuery,
  response: ConnectionSchema,
  paginated: true,
  async run({ principal, query }) {
    const { items, total } = await listConnections(principal, query);
    return new Page(items.map(connectionJson), total, query);
  },
});
