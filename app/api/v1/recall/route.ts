// POST /api/v1/recall — raw matches for a query
import { endpoints } from "@/lib/api/endpoints";
import { withApiKey } from "@/lib/api/with-api-key";
import { matchJson, recall } from "@/lib/memory/recall";

export const POST = withApiKey(endpoints.recall, async ({ key, body, activity }) => {
  activity.identityId = body.identity_id;
  const matches = await recall(key, body, activity);
  activity.details = { matches: matches.length };
  return matches.map(matchJson);
});
