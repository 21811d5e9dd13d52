// POST /api/v1/webhooks/{id}/rotate-secret — a new signing secret; the old one signs too for the overlap
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  POST: withApiKey(operations.rotateWebhookSecret),
});
