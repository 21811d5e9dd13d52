// DELETE /api/v1/namespaces/{id}/grants/{grantId} — remove a grant
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ DELETE: withApiKey(operations.deleteGrant) });
