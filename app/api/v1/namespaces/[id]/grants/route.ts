// GET/POST /api/v1/namespaces/{id}/grants — who may use a namespace
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(operations.listGrants),
  POST: withApiKey(operations.createGrant),
});
