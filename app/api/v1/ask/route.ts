// POST /api/v1/ask — an answer from memory with cited sources
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { askOperation } from "@/lib/memory/operations";

export const POST = withApiKey(endpoints.ask, askOperation);
