// GET/POST /api/v1/namespaces/{id}/grants — who may use a namespace
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { createGrant, listGrants } from "@/lib/namespaces/namespaces";
import { grantJson } from "@/lib/namespaces/schemas";

export const GET = withApiKey(endpoints.listGrants, async ({ key, params }) =>
  (await listGrants(key, params.id)).map(grantJson),
);

export const POST = withApiKey(endpoints.createGrant, async ({ key, params, body }) =>
  grantJson(await createGrant(key, params.id, body)),
);
