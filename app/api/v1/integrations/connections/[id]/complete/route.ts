// POST /api/v1/integrations/connections/{id}/complete — finish the OAuth flow with the provider's code and state
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  POST: withApiKey(endpoints.completeIntegrationConnection),
});
