// POST /api/v1/remember — store a memory or a batch of them
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

const rememberRoute = withApiKey(endpoints.remember);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ POST: rememberRoute });
