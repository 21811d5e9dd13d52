import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import type { Scopes } from "@/lib/auth/scopes";
import { db, type Tx } from "@/lib/db";
import { eraseDocuments } from "../store/document-erasure";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { deleteMemories } from "../store/deletion";
import { memoriesSelectedForDeletion } from "./deletion-selection";
import type { ForgetBody } from "./forget-body";
import { effectiveScopes } from "../common/scopes";
import { crashPoint } from "../store/write-intents";

/** What a forget deleted in its namespace, as its `inTransaction` step sees it. */
export interface ForgottenInNamespace {
  namespaceId: string;
  namespace: { id: string; name: string };
  memoryIds: string[];
  chunksDeleted: number;
  /** Facts a chat model derived from them, deleted with them (not in memoryIds). */
  factsDeleted: number;
  /** The scopes the deletion applied: the request's and the key's own (its receipt keeps them). */
  scopes: Scopes;
}

/**
 * Deletes the memories matching every selector given (within the key's scopes), with their chunks and vectors.
 * `inTransaction` runs in the deletion's transaction (the erasure receipt and audit entry; throwing undoes it).
 */
export async function forget(
  principal: Principal,
  body: ForgetBody,
  activity: ActivityNote = {},
  inTransaction?: (tx: Tx, forgotten: ForgottenInNamespace) => Promise<void>,
) {
  const namespace = await resolveTarget(principal, body);
  activity.namespaceId = namespace.id;
  const scopes = effectiveScopes(principal.scopes, body.scopes);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const memoryIds = await memoriesSelectedForDeletion(tx, {
      orgId: principal.orgId,
      namespaceId: namespace.id,
      scopes,
      identityId: body.identity_id,
      metadata: body.metadata,
      memoryIds: body.memory_ids,
    });
    const { chunksDeleted, factsDeleted } = await deleteMemories(tx, principal.orgId, namespace.id, memoryIds, {
      reason: "forget",
    });
    // Forgetting an identity's memories, or every memory within some scopes, takes their documents too.
    if (body.memory_ids === undefined && body.metadata === undefined) {
      await eraseDocuments(tx, {
        orgId: principal.orgId,
        namespaceIds: [namespace.id],
        identityId: body.identity_id,
        scopes,
      });
    }
    const forgotten = { namespaceId: namespace.id, namespace, memoryIds, chunksDeleted, factsDeleted, scopes };
    await inTransaction?.(tx, forgotten);
    crashPoint("forget.in-transaction");
    return { namespace, deleted: memoryIds.length, memoryIds, chunksDeleted, factsDeleted };
  });
}
