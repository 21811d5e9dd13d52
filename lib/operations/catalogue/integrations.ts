// Integrations: providers whose documents come into a namespace.
// Part of the operation catalogue (lib/operations/catalogue.ts), which gathers every area's in order.
import { z } from "zod";
import { Page } from "@/lib/http/pagination";
import { listProviders } from "@/lib/integrations/clients";
import { completeConnection } from "@/lib/integrations/connections/complete-connection";
import { connectionJson } from "@/lib/integrations/connections/connection-json";
import { deleteConnection } from "@/lib/integrations/connections/delete-connection";
import { getConnection } from "@/lib/integrations/connections/get-connection";
import { listConnections } from "@/lib/integrations/connections/list-connections";
import { reconnectConnection } from "@/lib/integrations/connections/reconnect-connection";
import { requestSync } from "@/lib/integrations/connections/request-sync";
import { startConnection } from "@/lib/integrations/connections/start-connection";
import {
  CompleteConnectionBody,
  ConnectionIdParams,
  ConnectionSchema,
  CreateConnectionBody,
  CreatedConnectionSchema,
  DeleteConnectionQuery,
  DeletedConnectionSchema,
  ListConnectionsQuery,
  ProviderSchema,
  ReconnectConnectionBody,
} from "@/lib/integrations/schemas";
import { operation } from "../operation";

export const integrationsOperations = {
  // Integrations bring a provider's documents into a namespace without scopes: a key with scopes may not.
  listIntegrationProviders: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "managing integrations",
    response: z.array(ProviderSchema),
    run: async ({ principal }) => listProviders(principal.orgId),
  }),
  createIntegrationConnection: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "connecting an integration",
    body: CreateConnectionBody,
    response: CreatedConnectionSchema,
    successStatus: 201,
    async run({ principal, body }) {
      const { connection, authorizationUrl } = await startConnection(principal, body);
      return { connection: connectionJson(connection), authorization_url: authorizationUrl };
    },
  }),
  completeIntegrationConnection: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "connecting an integration",
    params: ConnectionIdParams,
    body: CompleteConnectionBody,
    response: ConnectionSchema,
    run: async ({ principal, params, body }) => connectionJson(await completeConnection(principal, params.id, body)),
  }),
  reconnectIntegrationConnection: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "connecting an integration",
    params: ConnectionIdParams,
    body: ReconnectConnectionBody,
    response: CreatedConnectionSchema,
    async run({ principal, params, body }) {
      const { connection, authorizationUrl } = await reconnectConnection(principal, params.id, body);
      return { connection: connectionJson(connection), authorization_url: authorizationUrl };
    },
  }),
  listIntegrationConnections: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "managing integrations",
    query: ListConnectionsQuery,
    response: ConnectionSchema,
    paginated: true,
    async run({ principal, query }) {
      const { items, total } = await listConnections(principal, query);
      return new Page(items.map(connectionJson), total, query);
    },
  }),
  getIntegrationConnection: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "managing integrations",
    params: ConnectionIdParams,
    response: ConnectionSchema,
    run: async ({ principal, params }) => connectionJson(await getConnection(principal, params.id)),
  }),
  syncIntegrationConnection: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "syncing an integration",
    params: ConnectionIdParams,
    response: ConnectionSchema,
    run: async ({ principal, params }) => connectionJson(await requestSync(principal, params.id)),
  }),
  deleteIntegrationConnection: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "deleting an integration",
    params: ConnectionIdParams,
    query: DeleteConnectionQuery,
    response: DeletedConnectionSchema,
    run: ({ principal, params, query }) => deleteConnection(principal, params.id, query.keep_memories),
  }),
};
