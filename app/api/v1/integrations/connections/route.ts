// GET /api/v1/integrations/connections — the connections of the key's namespaces; POST — start connecting one
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(operations.listIntegrationConnections),
  POST: withApiKey(operations.createIntegrationConnection),
});
