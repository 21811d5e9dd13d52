// GET /api/v1/memories/{id} — one memory within the key's namespaces and scopes
import { endpoints } from "@/lib/api/endpoints";
import { apiRoute } from "@/lib/api/methods";
import { withApiKey } from "@/lib/api/with-api-key";
import { getMemory } from "@/lib/memory/memories";
import { memoryJson } from "@/lib/memory/schemas";

const getMemoryRoute = withApiKey(endpoints.getMemory, async ({ key, params, activity }) =>
  memoryJson(await getMemory(key, params.id, activity)),
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: getMemoryRoute });
