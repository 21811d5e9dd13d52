// POST /api/v1/webhooks/{id}/test — send a signed webhook.test message now
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ POST: withApiKey(operations.testWebhook) });
