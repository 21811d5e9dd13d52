// GET/PATCH/DELETE /api/v1/namespaces/{id} — one namespace granted to the key
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { deleteNamespace, getNamespace, updateNamespace } from "@/lib/namespaces/namespaces";
import { namespaceJson } from "@/lib/namespaces/schemas";

export const GET = withApiKey(endpoints.getNamespace, async ({ key, params }) =>
  namespaceJson(await getNamespace(key, params.id)),
);

export const PATCH = withApiKey(endpoints.updateNamespace, async ({ key, params, body }) =>
  namespaceJson(await updateNamespace(key, params.id, body)),
);

export const DELETE = withApiKey(endpoints.deleteNamespace, ({ key, params }) => deleteNamespace(key, params.id));
