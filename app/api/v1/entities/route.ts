// GET /api/v1/entities — a namespace's entities, most mentioned first, cursor-paginated, within the key's scopes
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: withApiKey(endpoints.listEntities) });
