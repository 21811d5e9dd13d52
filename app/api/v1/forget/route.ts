// POST /api/v1/forget — delete memories by ids, identity, scopes, metadata or all
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

const forgetRoute = withApiKey(operations.forget);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ POST: forgetRoute });
