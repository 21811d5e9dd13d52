// GET/PATCH/DELETE /api/v1/namespaces/{id} — one namespace granted to the key
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(operations.getNamespace),
  PATCH: withApiKey(operations.updateNamespace),
  DELETE: withApiKey(operations.deleteNamespace),
});
