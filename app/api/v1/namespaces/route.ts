// GET /api/v1/namespaces — namespaces granted to the key; POST — create one (the creating key is granted)
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(operations.listNamespaces),
  POST: withApiKey(operations.createNamespace),
});
