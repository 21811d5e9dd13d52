import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { InvalidError } from "@/lib/errors";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { chatModel, openAIConfigured } from "@/lib/net/openai-client";
import type { Target } from "@/lib/validation/target";
import type { RememberItem } from "../write/memory-items";
import { remember, type RememberOptions, type WrittenMemory } from "../write/remember";
import type { InferenceState } from "../common/memory-origin";
import { queueExtraction, wakeExtractionWorkers } from "./extraction-job";

/**
 * remember (lib/memory/write/remember.ts), and when `infer` is on (the request's, else its namespace's) the chat
 * model's extraction of facts from what it stored: queued in the same transactions as the memories, which are
 * stored and answered first whatever the model does later (the job's state shows on them). Document passages and
 * memories that were already stored (deduplicated) are never given to the model. `infer: true` on a server without
 * a chat model (OPENAI_BASE_URL, OPENAI_API_KEY) → InvalidError, nothing written; a namespace's `infer` there is
 * ignored. Returns what remember returns.
 */
export async function rememberInferring(
  principal: Principal,
  target: Target & { infer?: boolean },
  items: RememberItem[],
  activity: ActivityNote = {},
  options: RememberOptions = {},
) {
  if (target.infer === true && !openAIConfigured()) {
    throw new InvalidError(
      "infer needs a chat model, and this server has none: its operator sets OPENAI_BASE_URL or OPENAI_API_KEY.",
      [{ field: "body.infer", message: "no chat model is configured on this server" }],
    );
  }
  const namespace = await resolveTarget(principal, target);
  const infer = (target.infer ?? namespace.infer) && openAIConfigured();
  const model = chatModel();
  const written: WrittenMemory[] = [];
  let state: InferenceState | undefined;
  // Queued with the write's last transaction, which makes it whole: a conversation's turns go to the model together.
  const stored = await remember(principal, target, items, activity, {
    ...options,
    ...(infer && {
      inEachGroup: async (_tx, group) => void written.push(...group),
      inLastGroup: async (tx) => {
        if (written.length) state = await queueExtraction(tx, principal.orgId, namespace.id, written, model);
      },
    }),
  });
  if (!state) return stored;
  wakeExtractionWorkers();
  const queued = new Set(written.map((memory) => memory.id));
  return {
    ...stored,
    memories: stored.memories.map((row) => (queued.has(row.id) ? { ...row, inference: state } : row)),
  };
}
