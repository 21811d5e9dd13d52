// GET /api/v1/webhooks/{id} — one endpoint; PATCH — change it; DELETE — delete it with its delivery log
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(operations.getWebhook),
  PATCH: withApiKey(operations.updateWebhook),
  DELETE: withApiKey(operations.deleteWebhook),
});
