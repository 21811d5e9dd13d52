// POST /api/v1/documents — add a file, URL or inline document to a namespace; GET — a namespace's documents
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: withApiKey(operations.listDocuments),
  POST: withApiKey(operations.addDocument),
});
