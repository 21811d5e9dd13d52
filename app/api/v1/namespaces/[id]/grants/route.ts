// GET/POST /api/v1/namespaces/{id}/grants — who may use a namespace
import { endpoints } from "@/lib/api/endpoints";
import { apiRoute } from "@/lib/api/methods";
import { withApiKey } from "@/lib/api/with-api-key";
import { createGrant, listGrants } from "@/lib/namespaces/namespaces";
import { grantJson } from "@/lib/namespaces/schemas";

const listGrantsRoute = withApiKey(endpoints.listGrants, async ({ key, params }) =>
  (await listGrants(key, params.id)).map(grantJson),
);

const createGrantRoute = withApiKey(endpoints.createGrant, async ({ key, params, body }) =>
  grantJson(await createGrant(key, params.id, body)),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: listGrantsRoute, POST: createGrantRoute });
