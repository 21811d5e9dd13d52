// POST /api/v1/forget — delete memories by ids, identity, scopes, metadata or all
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

const forgetRoute = withApiKey(endpoints.forget);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ POST: forgetRoute });
