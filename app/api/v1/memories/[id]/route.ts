// GET /api/v1/memories/{id} — one memory within the key's namespaces and scopes; PATCH — change it, keeping history
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(operations.getMemory),
  PATCH: withApiKey(operations.updateMemory),
});
