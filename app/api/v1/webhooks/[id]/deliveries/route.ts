// GET /api/v1/webhooks/{id}/deliveries — the endpoint's delivery log
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(endpoints.listWebhookDeliveries),
});
