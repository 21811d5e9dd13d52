// GET /api/v1/memories/{id} — one memory within the key's namespaces and scopes; PATCH — change it, keeping history
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(endpoints.getMemory),
  PATCH: withApiKey(endpoints.updateMemory),
});
