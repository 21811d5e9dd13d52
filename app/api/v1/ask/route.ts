// POST /api/v1/ask — an answer from memory with cited sources
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

const askRoute = withApiKey(endpoints.ask);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ POST: askRoute });
