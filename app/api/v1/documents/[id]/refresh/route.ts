// POST /api/v1/documents/{id}/refresh — fetch a URL's document again and replace its passages
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ POST: withApiKey(operations.refreshDocument) });
