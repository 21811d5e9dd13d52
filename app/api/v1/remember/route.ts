// POST /api/v1/remember — store a memory or a batch of them
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { memoryItems, remember } from "@/lib/memory/memories";
import { memoryJson } from "@/lib/memory/schemas";

export const POST = withApiKey(endpoints.remember, async ({ key, body, activity }) => {
  activity.identityId = body.identity_id;
  const { memories } = await remember(key, body, memoryItems(body), activity);
  activity.details = { memories: memories.length };
  return body.content !== undefined ? memoryJson(memories[0]) : memories.map(memoryJson);
});
