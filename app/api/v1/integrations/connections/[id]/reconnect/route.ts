// POST /api/v1/integrations/connections/{id}/reconnect — a new consent page URL and state for an existing connection
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  POST: withApiKey(operations.reconnectIntegrationConnection),
});
