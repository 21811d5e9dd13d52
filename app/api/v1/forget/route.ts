// POST /api/v1/forget — delete memories by ids, identity, scopes, metadata or all
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { forgetOperation } from "@/lib/memory/operations";

export const POST = withApiKey(endpoints.forget, forgetOperation);
