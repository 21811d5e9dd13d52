// The memory operations as the HTTP API and the MCP tools both run them (through runOperation):
// from a validated body to the response's data, noting identity and counts for the activity row.
import type { endpoints } from "@/lib/api/endpoints";
import type { Handler } from "@/lib/api/operation";
import { ask } from "./ask";
import { forget, memoryItems, remember } from "./memories";
import { matchJson, recall } from "./recall";
import { memoryJson } from "./schemas";

export const rememberOperation: Handler<typeof endpoints.remember> = async ({ key, body, activity }) => {
  activity.identityId = body.identity_id;
  const { memories } = await remember(key, body, memoryItems(body), activity);
  activity.details = { memories: memories.length };
  return body.content !== undefined ? memoryJson(memories[0]) : memories.map(memoryJson);
};

export const recallOperation: Handler<typeof endpoints.recall> = async ({ key, body, activity }) => {
  activity.identityId = body.identity_id;
  const { matches } = await recall(key, body, activity);
  activity.details = { matches: matches.length };
  return matches.map(matchJson);
};

export const forgetOperation: Handler<typeof endpoints.forget> = async ({ key, body, activity }) => {
  activity.identityId = body.identity_id;
  const { deleted, memoryIds } = await forget(key, body, activity);
  activity.details = { deleted };
  return { deleted, memory_ids: memoryIds };
};

export const askOperation: Handler<typeof endpoints.ask> = async ({ key, body, activity }) => {
  activity.identityId = body.identity_id;
  return ask(key, body, activity);
};
