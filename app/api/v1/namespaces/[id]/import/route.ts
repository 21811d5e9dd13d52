// POST /api/v1/namespaces/{id}/import — an export's NDJSON into the namespace, all or nothing
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  POST: withApiKey(operations.importNamespace),
});
