import { z } from "zod";
import { matchJson, recall } from "@/lib/memory/search/recall";
import { MatchSchema, RecallBody } from "@/lib/memory/common/schemas";
import { operation } from "../operation";

export const recallOperation = operation({
  http: {
    method: "POST",
    path: "/recall",
    tag: "Memory",
    summary:
      "Raw matches for a query, best first: hybrid BM25 + semantic search, filtered by scopes, identity and metadata",
    errors: [404, 502, 503],
  },
  permission: "NAMESPACE_READ",
  body: RecallBody,
  response: z.array(MatchSchema),
  activity: "recall",
  async run({ principal, body, activity }) {
    activity.identityId = body.identity_id;
    const { matches } = await recall(principal, body, activity);
    activity.details = { matches: matches.length };
    return matches.map(matchJson);
  },
});
