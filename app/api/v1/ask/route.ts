// POST /api/v1/ask — an answer from memory with cited sources
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

const askRoute = withApiKey(operations.ask);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ POST: askRoute });
