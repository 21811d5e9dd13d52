// POST /api/v1/remember — store a memory or a batch of them
import { endpoints } from "@/lib/api/endpoints";
import { apiRoute } from "@/lib/api/methods";
import { withApiKey } from "@/lib/api/with-api-key";
import { rememberOperation } from "@/lib/memory/operations";

const rememberRoute = withApiKey(endpoints.remember, rememberOperation);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ POST: rememberRoute });
