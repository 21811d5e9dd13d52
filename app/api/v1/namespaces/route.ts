// GET /api/v1/namespaces — namespaces granted to the key; POST — create one (the creating key is granted)
import { endpoints } from "@/lib/api/endpoints";
import { apiRoute } from "@/lib/api/methods";
import { Page } from "@/lib/api/pagination";
import { withApiKey } from "@/lib/api/with-api-key";
import { createNamespace, listNamespaces } from "@/lib/namespaces/namespaces";
import { namespaceJson } from "@/lib/namespaces/schemas";

const listNamespacesRoute = withApiKey(endpoints.listNamespaces, async ({ key, query }) => {
  const { items, total } = await listNamespaces(key, query);
  return new Page(items.map(namespaceJson), total, query);
});

const createNamespaceRoute = withApiKey(endpoints.createNamespace, async ({ key, body }) =>
  namespaceJson(await createNamespace(key, body)),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: listNamespacesRoute, POST: createNamespaceRoute });
