// GET /api/v1/identities/{id}/entities — what an identity's memories are about, the most mentioned first
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: withApiKey(endpoints.identityEntities) });
