// POST /api/v1/remember — store a memory or a batch of them
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { rememberOperation } from "@/lib/memory/operations";

export const POST = withApiKey(endpoints.remember, rememberOperation);
