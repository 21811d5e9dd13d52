// GET /api/v1/namespaces/{id}/export — the namespace's memories as NDJSON, streamed
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(endpoints.exportNamespace),
});
