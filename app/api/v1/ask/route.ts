// POST /api/v1/ask — an answer from memory with cited sources
import { endpoints } from "@/lib/api/endpoints";
import { apiRoute } from "@/lib/api/methods";
import { withApiKey } from "@/lib/api/with-api-key";
import { askOperation } from "@/lib/memory/operations";

const askRoute = withApiKey(endpoints.ask, askOperation);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ POST: askRoute });
