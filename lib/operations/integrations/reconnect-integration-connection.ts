import { connectionJson } from "@/lib/integrations/connections/connection-json";
import { reconnectConnection } from "@/lib/integrations/connections/reconnect-connection";
import { ConnectionIdParams, CreatedConnectionSchema, ReconnectConnectionBody } from "@/lib/integrations/schemas";
import { operation } from "../operation";

export const reconnectIntegrationConnectionOperation = operation({
  http: {
    method: "POST",
    path: "/integrations/connections/{id}/reconnect",
    tag: "Integrations",
    summary:
      "Authorize an existing connection again (its access was refused or revoked): a new consent page URL " +
      "and state; completing it keeps the connection's memories and syncs what changed",
    errors: [404, 409],
  },
  permission: "INTEGRATION_MANAGE",
  namespaceWide: "connecting an integration",
  params: ConnectionIdParams,
  body: ReconnectConnectionBody,
  response: CreatedConnectionSchema,
  async run({ principal, params, body }) {
    const { connection, authorizationUrl } = await reconnectConnection(principal, params.id, body);
    return { connection: connectionJson(connection), authorization_url: authorizationUrl };
  },
});
