// Integrations: providers whose documents come into a namespace.
// Part of the operation catalogue (lib/operations/catalogue.ts), which gathers every area's in order.
import { listIntegrationProvidersOperation } from "../integrations/list-integration-providers";
import { createIntegrationConnectionOperation } from "../integrations/create-integration-connection";
import { completeIntegrationConnectionOperation } from "../integrations/complete-integration-connection";
import { reconnectIntegrationConnectionOperation } from "../integrations/reconnect-integration-connection";
import { listIntegrationConnectionsOperation } from "../integrations/list-integration-connections";
import { getIntegrationConnectionOperation } from "../integrations/get-integration-connection";
import { syncIntegrationConnectionOperation } from "../integrations/sync-integration-connection";
import { deleteIntegrationConnectionOperation } from "../integrations/delete-integration-connection";

export const integrationsOperations = {
  // Integrations bring a provider's documents into a namespace without scopes: a key with scopes may not.
  listIntegrationProviders: listIntegrationProvidersOperation,
  createIntegrationConnection: createIntegrationConnectionOperation,
  completeIntegrationConnection: completeIntegrationConnectionOperation,
  reconnectIntegrationConnection: reconnectIntegrationConnectionOperation,
  listIntegrationConnections: listIntegrationConnectionsOperation,
  getIntegrationConnection: getIntegrationConnectionOperation,
  syncIntegrationConnection: syncIntegrationConnectionOperation,
  deleteIntegrationConnection: deleteIntegrationConnectionOperation,
};
