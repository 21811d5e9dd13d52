// GET/PATCH/DELETE /api/v1/namespaces/{id} — one namespace granted to the key
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(endpoints.getNamespace),
  PATCH: withApiKey(endpoints.updateNamespace),
  DELETE: withApiKey(endpoints.deleteNamespace),
});
