// GET/DELETE /api/v1/integrations/connections/{id} — one connection; deleting it revokes and forgets what it brought
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(operations.getIntegrationConnection),
  DELETE: withApiKey(operations.deleteIntegrationConnection),
});
