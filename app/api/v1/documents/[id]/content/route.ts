// GET /api/v1/documents/{id}/content — the document's original bytes, as a download
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute, headOf } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: withApiKey(operations.documentContent) });
export const HEAD = headOf(GET);
