// DELETE /api/v1/namespaces/{id}/grants/{grantId} — remove a grant
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ DELETE: withApiKey(endpoints.deleteGrant) });
