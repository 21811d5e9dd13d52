// GET /api/v1/namespaces — namespaces granted to the key; POST — create one (the creating key is granted)
import { endpoints } from "@/lib/api/endpoints";
import { Page } from "@/lib/api/pagination";
import { withApiKey } from "@/lib/api/with-api-key";
import { createNamespace, listNamespaces } from "@/lib/namespaces/namespaces";
import { namespaceJson } from "@/lib/namespaces/schemas";

export const GET = withApiKey(endpoints.listNamespaces, async ({ key, query }) => {
  const { items, total } = await listNamespaces(key, query);
  return new Page(items.map(namespaceJson), total, query);
});

export const POST = withApiKey(endpoints.createNamespace, async ({ key, body }) =>
  namespaceJson(await createNamespace(key, body)),
);
