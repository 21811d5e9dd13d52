// POST /api/v1/forget — delete memories by ids, identity, scopes, metadata or all
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { forget } from "@/lib/memory/memories";

export const POST = withApiKey(endpoints.forget, async ({ key, body, activity }) => {
  activity.identityId = body.identity_id;
  const { deleted, memoryIds } = await forget(key, body, activity);
  activity.details = { deleted };
  return { deleted, memory_ids: memoryIds };
});
