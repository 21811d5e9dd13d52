// POST /api/v1/integrations/connections/{id}/sync — queue a sync now
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  POST: withApiKey(operations.syncIntegrationConnection),
});
