import { z } from "zod";
import { memoryItems } from "@/lib/memory/write/memory-items";
import { rememberInferring } from "@/lib/memory/inference/remember-inferring";
import { MemorySchema, memoryJson, RememberBody } from "@/lib/memory/common/schemas";
import { operation } from "../operation";

export const rememberOperation = operation({
  http: {
    method: "POST",
    path: "/remember",
    tag: "Memory",
    summary: "Store a memory (`content`) or a batch (`memories`, 1 to 100); it can be recalled as soon as this returns",
    errors: [404, 502, 503],
    idempotent: true,
  },
  permission: "NAMESPACE_WRITE",
  body: RememberBody,
  response: z.union([MemorySchema, z.array(MemorySchema)]),
  successStatus: 201,
  activity: "remember",
  async run({ principal, body, activity }) {
    const items = memoryItems(body);
    // One activity row per request: a batch whose items all name the same identity is that identity's.
    const identities = new Set(items.map((item) => item.identity_id));
    activity.identityId = identities.size === 1 ? [...identities][0] : undefined;
    const { memories } = await rememberInferring(principal, body, items, activity, {
      sessionId: body.session_id,
      allowDuplicate: body.allow_duplicate,
    });
    activity.details = { memories: memories.length };
    return body.content !== undefined ? memoryJson(memories[0]) : memories.map(memoryJson);
  },
});
