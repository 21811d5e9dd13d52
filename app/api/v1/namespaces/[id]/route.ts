// GET/PATCH/DELETE /api/v1/namespaces/{id} — one namespace granted to the key
import { endpoints } from "@/lib/api/endpoints";
import { apiRoute } from "@/lib/api/methods";
import { withApiKey } from "@/lib/api/with-api-key";
import { deleteNamespace, getNamespace, updateNamespace } from "@/lib/namespaces/namespaces";
import { namespaceJson } from "@/lib/namespaces/schemas";

const getNamespaceRoute = withApiKey(endpoints.getNamespace, async ({ key, params }) =>
  namespaceJson(await getNamespace(key, params.id)),
);

const updateNamespaceRoute = withApiKey(endpoints.updateNamespace, async ({ key, params, body }) =>
  namespaceJson(await updateNamespace(key, params.id, body)),
);

const deleteNamespaceRoute = withApiKey(endpoints.deleteNamespace, ({ key, params }) => deleteNamespace(key, params.id));

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: getNamespaceRoute, PATCH: updateNamespaceRoute, DELETE: deleteNamespaceRoute });
