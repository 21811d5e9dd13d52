// POST /api/v1/integrations/connections/{id}/complete — finish the OAuth flow with the provider's code and state
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  POST: withApiKey(operations.completeIntegrationConnection),
});
