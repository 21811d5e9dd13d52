// GET /api/v1/webhooks — the organization's webhook endpoints; POST — add one (its secret shown once)
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(endpoints.listWebhooks),
  POST: withApiKey(endpoints.createWebhook),
});
