// POST /api/v1/forget — delete memories by ids, identity, scopes, metadata or all
import { endpoints } from "@/lib/api/endpoints";
import { apiRoute } from "@/lib/api/methods";
import { withApiKey } from "@/lib/api/with-api-key";
import { forgetOperation } from "@/lib/memory/operations";

const forgetRoute = withApiKey(endpoints.forget, forgetOperation);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ POST: forgetRoute });
