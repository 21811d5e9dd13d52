// The extraction job of a write with `infer` (lib/memory/inference/run-extraction.ts runs it): queued in the write's
// own transaction, so the memories and their job commit together, and its state kept on the memories it reads.
import type { Scopes } from "@/lib/auth/scopes";
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { canonicalJson } from "@/lib/http/canonical-json";
import { recordMemoryEvents } from "@/lib/event-recording/record-events";
import { enqueueJob, wakeJobWorkers } from "@/lib/jobs/queue";
import type { InferenceState } from "../common/memory-origin";

export const EXTRACTION_JOB = "memory_fact_extraction";
/** Attempts that call the model (a 429 waited out is not one). */
export const EXTRACTION_ATTEMPTS = 5;

/** What an extraction job reads: memories of one namespace, identity and scopes, written by one request. */
export interface ExtractionPayload {
  namespace_id: string;
  identity_id: string | null;
  scopes: Scopes;
  memory_ids: string[];
}

/**
 * Queues, within the write's last transaction `tx`, the extraction of facts from memories it stored: one job per
 * identity and scopes among them (a fact is never made of two identities' or scopes' words), and marks them
 * `queued`. The caller wakes the workers once the write commits (wakeExtractionWorkers). Returns the state the
 * memories now show.
 */
export async function queueExtraction(
  tx: Tx,
  orgId: string,
  namespaceId: string,
  memories: { id: string; identityId: string | null; scopes: Scopes }[],
  model: string,
): Promise<InferenceState> {
  const groups = new Map<string, { identityId: string | null; scopes: Scopes; ids: string[] }>();
  for (const memory of memories) {
    const slot = `${memory.identityId ?? ""}\u0000${canonicalJson(memory.scopes)}`;
    const group = groups.get(slot) ?? { identityId: memory.identityId, scopes: memory.scopes, ids: [] };
    group.ids.push(memory.id);
    groups.set(slot, group);
  }
  const queued = { status: "queued" as const, attempts: 0, tokens: 0, rate_limited: 0, facts: [], error: null, model };
  for (const { identityId, scopes, ids } of groups.values()) {
    const payload: ExtractionPayload = {
      namespace_id: namespaceId,
      identity_id: identityId,
      scopes,
      memory_ids: ids,
    };
    await enqueueJob(
      {
        kind: EXTRACTION_JOB,
        orgId,
        key: `extract:${ids[0]}`,
        payload: { ...payload },
        maxAttempts: EXTRACTION_ATTEMPTS,
      },
      tx,
    );
    await setInferenceState(tx, orgId, ids, queued);
  }
  return { ...queued, updated_at: new Date().toISOString() };
}

/**
 * Marks memories a write asked a model about, on a server without one, as failed with why (`error`), within the
 * write's transaction, with their `memory.inference.failed` events. Returns the state they now show.
 */
export async function markUnavailable(
  tx: Tx,
  orgId: string,
  memories: { id: string }[],
  error: string,
): Promise<InferenceState> {
  const failed = { status: "failed" as const, attempts: 0, tokens: 0, rate_limited: 0, facts: [], error, model: null };
  const ids = memories.map((memory) => memory.id);
  await setInferenceState(tx, orgId, ids, failed);
  await recordMemoryEvents(tx, orgId, "memory.inference.failed", ids, { error });
  return { ...failed, updated_at: new Date().toISOString() };
}

/** Starts this process's extraction workers on what a committed write queued. */
export function wakeExtractionWorkers(): void {
  wakeJobWorkers(EXTRACTION_JOB);
}

/**
 * Sets the extraction state shown on memories (of `orgId` only), except on those already `done`: a run that lost its
 * lease, or the exhausted hook after a crash that followed the commit, never overwrites what was applied.
 */
export async function setInferenceState(
  tx: Tx,
  orgId: string,
  memoryIds: string[],
  state: Omit<InferenceState, "updated_at">,
): Promise<void> {
  const value: InferenceState = { ...state, updated_at: new Date().toISOString() };
  await tx.$executeRaw(
    Prisma.sql`UPDATE memories SET inference = ${JSON.stringify(value)}::jsonb
               WHERE org_id = ${orgId} AND id = ANY(${memoryIds}::text[])
                 AND inference->>'status' IS DISTINCT FROM 'done'`,
  );
}
