import { connectionJson } from "@/lib/integrations/connections/connection-json";
import { startConnection } from "@/lib/integrations/connections/start-connection";
import { CreateConnectionBody, CreatedConnectionSchema } from "@/lib/integrations/schemas";
import { operation } from "../operation";

export const createIntegrationConnectionOperation = operation({
  http: {
    method: "POST",
    path: "/integrations/connections",
    tag: "Integrations",
    summary:
      "Start connecting a namespace to a provider: a pending connection and the provider's consent page " +
      "(OAuth 2.0 authorization code, PKCE where supported; the state is single-use and valid 10 minutes)",
    errors: [404, 409],
  },
  permission: "INTEGRATION_MANAGE",
  namespaceWide: "connecting an integration",
  body: CreateConnectionBody,
  response: CreatedConnectionSchema,
  successStatus: 201,
  async run({ principal, body }) {
    const { connection, authorizationUrl } = await startConnection(principal, body);
    return { connection: connectionJson(connection), authorization_url: authorizationUrl };
  },
});
