// POST /api/v1/recall — raw matches for a query
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { recallOperation } from "@/lib/memory/operations";

export const POST = withApiKey(endpoints.recall, recallOperation);
