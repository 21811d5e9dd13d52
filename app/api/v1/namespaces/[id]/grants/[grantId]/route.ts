// DELETE /api/v1/namespaces/{id}/grants/{grantId} — remove a grant
import { endpoints } from "@/lib/api/endpoints";
import { apiRoute } from "@/lib/api/methods";
import { withApiKey } from "@/lib/api/with-api-key";
import { deleteGrant } from "@/lib/namespaces/namespaces";

const deleteGrantRoute = withApiKey(endpoints.deleteGrant, ({ key, params }) =>
  deleteGrant(key, params.id, params.grantId),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ DELETE: deleteGrantRoute });
