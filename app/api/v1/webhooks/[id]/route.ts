// GET /api/v1/webhooks/{id} — one endpoint; PATCH — change it; DELETE — delete it with its delivery log
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(endpoints.getWebhook),
  PATCH: withApiKey(endpoints.updateWebhook),
  DELETE: withApiKey(endpoints.deleteWebhook),
});
