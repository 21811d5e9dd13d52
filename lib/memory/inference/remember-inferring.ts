import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { chatModel, openAIConfigured } from "@/lib/net/openai-client";
import type { Target } from "@/lib/validation/target";
import type { RememberItem } from "../write/memory-items";
import { remember, type RememberOptions, type WrittenMemory } from "../write/remember";
import type { InferenceState } from "../common/memory-origin";
import { markUnavailable, queueExtraction, wakeExtractionWorkers } from "./extraction-job";

const NO_CHAT_MODEL =
  "infer needs a chat model, and this server has none (its operator sets OPENAI_BASE_URL or OPENAI_API_KEY): " +
  "the memory is stored as written.";

/**
 * remember (lib/memory/write/remember.ts), and when `infer` is on (the request's, else its namespace's) the chat
 * model's extraction of facts from what it stored: queued in the same transactions as the memories, which are
 * stored and answered first whatever the model does later (the job's state shows on them). Document passages and
 * memories that were already stored (deduplicated) are never given to the model. `infer: true` on a server without
 * a chat model (OPENAI_BASE_URL, OPENAI_API_KEY) stores the memories all the same, marked `failed` with why (a
 * write never fails for want of what is optional); a namespace's `infer` there is ignored. Returns what remember
 * returns, the memories with their extraction state.
 */
export async function rememberInferring(
  principal: Principal,
  target: Target & { infer?: boolean },
  items: RememberItem[],
  activity: ActivityNote = {},
  options: RememberOptions = {},
) {
  const namespace = await resolveTarget(principal, target);
  const unavailable = target.infer === true && !openAIConfigured();
  const infer = ((target.infer ?? namespace.infer) && openAIConfigured()) || unavailable;
  const model = chatModel();
  const written: WrittenMemory[] = [];
  let state: InferenceState | undefined;
  // Queued with the write's last transaction, which makes it whole: a conversation's turns go to the model together.
  const stored = await remember(principal, target, items, activity, {
    ...options,
    ...(infer && {
      inEachGroup: async (_tx, group) => void written.push(...group),
      inLastGroup: async (tx) => {
        if (written.length === 0) return;
        state = unavailable
          ? await markUnavailable(tx, principal.orgId, written, NO_CHAT_MODEL)
          : await queueExtraction(tx, principal.orgId, namespace.id, written, model);
      },
    }),
  });
  if (!state) return stored;
  if (!unavailable) wakeExtractionWorkers();
  const queued = new Set(written.map((memory) => memory.id));
  return {
    ...stored,
    memories: stored.memories.map((row) => (queued.has(row.id) ? { ...row, inference: state } : row)),
  };
}
