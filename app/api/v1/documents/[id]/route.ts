// GET /api/v1/documents/{id} — a document's status; DELETE — the document with its passages' memories
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(operations.getDocument),
  DELETE: withApiKey(operations.deleteDocument),
});
