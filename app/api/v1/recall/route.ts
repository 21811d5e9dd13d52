// POST /api/v1/recall — raw matches for a query
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

const recallRoute = withApiKey(operations.recall);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ POST: recallRoute });
