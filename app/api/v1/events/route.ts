// GET /api/v1/events — the changes to the memory the key may read, after a cursor
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: withApiKey(endpoints.listEvents) });
