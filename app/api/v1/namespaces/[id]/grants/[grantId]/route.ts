// DELETE /api/v1/namespaces/{id}/grants/{grantId} — remove a grant
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { deleteGrant } from "@/lib/namespaces/namespaces";

export const DELETE = withApiKey(endpoints.deleteGrant, ({ key, params }) =>
  deleteGrant(key, params.id, params.grantId),
);
