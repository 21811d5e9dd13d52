// POST /api/v1/recall — raw matches for a query
import { endpoints } from "@/lib/api/endpoints";
import { apiRoute } from "@/lib/api/methods";
import { withApiKey } from "@/lib/api/with-api-key";
import { recallOperation } from "@/lib/memory/operations";

const recallRoute = withApiKey(endpoints.recall, recallOperation);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ POST: recallRoute });
