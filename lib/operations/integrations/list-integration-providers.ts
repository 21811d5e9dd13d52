import { z } from "zod";
import { listProviders } from "@/lib/integrations/clients";
import { ProviderSchema } from "@/lib/integrations/schemas";
import { operation } from "../operation";

export const listIntegrationProvidersOperation = operation({
  http: {
    method: "GET",
    path: "/integrations/providers",
    tag: "Integrations",
    summary: "Every provider a namespace can be connected to, and whether this organization can connect it",
  },
  permission: "INTEGRATION_MANAGE",
  namespaceWide: "managing integrations",
  response: z.array(ProviderSchema),
  run: async ({ principal }) => listProviders(principal.orgId),
});
