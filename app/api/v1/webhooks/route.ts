// GET /api/v1/webhooks — the organization's webhook endpoints; POST — add one (its secret shown once)
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(operations.listWebhooks),
  POST: withApiKey(operations.createWebhook),
});
