// GET /api/v1/integrations/connections — the connections of the key's namespaces; POST — start connecting one
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(endpoints.listIntegrationConnections),
  POST: withApiKey(endpoints.createIntegrationConnection),
});
