// GET /api/v1/erasures — erasure receipts (forgets and namespace deletions), newest first
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiRoute } from "@/lib/http/methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: withApiKey(endpoints.listErasures) });
