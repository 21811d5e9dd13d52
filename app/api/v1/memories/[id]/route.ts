// GET /api/v1/memories/{id} — one memory within the key's namespaces and scopes
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { getMemory } from "@/lib/memory/memories";
import { memoryJson } from "@/lib/memory/schemas";

export const GET = withApiKey(endpoints.getMemory, async ({ key, params, activity }) =>
  memoryJson(await getMemory(key, params.id, activity)),
);
