// GET /api/v1/memories/{id}/history — a memory's versions, newest first, within the key's scopes
import { operations } from "@/lib/operations/catalogue";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: withApiKey(operations.memoryHistory) });
