// POST /api/v1/namespaces/{id}/import — an export's NDJSON into the namespace, all or nothing
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  POST: withApiKey(endpoints.importNamespace),
});
