import { ask } from "@/lib/memory/answer/ask";
import { AskBody, AskResultSchema } from "@/lib/memory/common/schemas";
import { operation } from "../operation";

export const askOperation = operation({
  http: {
    method: "POST",
    path: "/ask",
    tag: "Memory",
    summary:
      "An answer to a question from the namespace's memories, citing them as [n] (`sources[].index`): " +
      "written by the configured chat model, or by the built-in extractive answerer offline",
    errors: [404, 502, 503],
  },
  permission: "NAMESPACE_READ",
  body: AskBody,
  response: AskResultSchema,
  activity: "ask",
  async run({ principal, body, activity }) {
    activity.identityId = body.identity_id;
    return ask(principal, body, activity);
  },
});
