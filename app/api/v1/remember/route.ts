// POST /api/v1/remember — store a memory or a batch of them
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

const rememberRoute = withApiKey(operations.remember);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ POST: rememberRoute });
