// Forgetting as a deletion request that leaves proof: every forget (API and MCP), in one namespace or in
// every namespace the principal may write (`all_namespaces`), writes an erasure receipt and an audit entry
// in the transaction that deletes (lib/namespaces/erasure-receipts.ts), so the receipt exists exactly when
// the deletion happened and says exactly what it deleted.
import type { ActivityNote } from "@/lib/activity/activity";
import { actorOf, namespaceAccess, type Principal } from "@/lib/auth/principal";
import type { Scopes } from "@/lib/auth/scopes";
import { recordAudit } from "@/lib/audit/audit";
import { db, type Tx } from "@/lib/db";
import { keepAnswerWithWrite } from "@/lib/http/request-writes";
import {
  erasureAuditDetails,
  recordErasure,
  type ErasedNamespace,
  type Erasure,
  type ErasureSelector,
} from "@/lib/namespaces/erasure-receipts";
import { deleteMemories, forget, memoriesSelectedForDeletion } from "./memories";
import type { ForgetBody } from "./forget-body";
import { effectiveScopes } from "./scopes";

export interface Forgotten {
  deleted: number;
  memoryIds: string[];
  /** Per namespace searched: one for a forget in a namespace, those deleted from for all_namespaces. */
  namespaces: { namespaceId: string; deleted: number }[];
  erasure: Erasure;
}

/** What a forget asked for, as its receipt keeps it: the scopes applied (the key's included), ids counted. */
function selectorOf(body: ForgetBody, scopes: Scopes): ErasureSelector {
  const selector: ErasureSelector = {};
  if (body.memory_ids) selector.memory_id_count = body.memory_ids.length;
  if (body.identity_id !== undefined) selector.identity_id = body.identity_id;
  if (Object.keys(scopes).length > 0) selector.scopes = scopes;
  if (body.metadata) selector.metadata = body.metadata;
  if (body.all) selector.all = true;
  if (body.all_namespaces) selector.all_namespaces = true;
  return selector;
}

/**
 * The receipt of a forget in one namespace, written with the deletion's transaction. Without an audit entry:
 * the caller writes the one that fits (forgetWithReceipt "memory.forget", the console's "memory.delete").
 */
export async function recordForgetReceipt(
  tx: Tx,
  principal: Principal,
  body: ForgetBody,
  forgotten: { namespace: { id: string; name: string }; memoryIds: string[]; chunksDeleted: number },
): Promise<Erasure> {
  return recordErasure(tx, principal, {
    kind: "forget",
    namespaceId: forgotten.namespace.id,
    namespaces: [
      {
        namespaceId: forgotten.namespace.id,
        name: forgotten.namespace.name,
        memoriesDeleted: forgotten.memoryIds.length,
        chunksDeleted: forgotten.chunksDeleted,
      },
    ],
    selector: selectorOf(body, effectiveScopes(principal.scopes, body.scopes)),
  });
}

async function auditForget(tx: Tx, principal: Principal, erasure: Erasure) {
  await recordAudit(tx, {
    orgId: principal.orgId,
    actor: actorOf(principal),
    action: "memory.forget",
    targetType: "erasure",
    targetId: erasure.id,
    details: erasureAuditDetails(erasure),
  });
}

/**
 * The forget operation: deletes what the body selects in its namespace, or with `all_namespaces` the
 * identity's memories in every namespace the principal may write, and records the receipt and the audit
 * entry in the same transaction. Also when nothing matched: the request itself is on record.
 */
export async function forgetWithReceipt(
  principal: Principal,
  body: ForgetBody,
  activity: ActivityNote = {},
): Promise<Forgotten> {
  if (body.all_namespaces) return forgetInEveryNamespace(principal, body);
  let erasure: Erasure | undefined;
  const result = await forget(principal, body, activity, async (tx, forgotten) => {
    erasure = await recordForgetReceipt(tx, principal, body, forgotten);
    await auditForget(tx, principal, erasure);
    const answer = forgetResultJson({
      deleted: forgotten.memoryIds.length,
      memoryIds: forgotten.memoryIds,
      namespaces: [{ namespaceId: forgotten.namespaceId, deleted: forgotten.memoryIds.length }],
      erasure,
    });
    await keepAnswerWithWrite(tx, 200, answer);
  });
  return {
    deleted: result.deleted,
    memoryIds: result.memoryIds,
    namespaces: [{ namespaceId: result.namespace.id, deleted: result.deleted }],
    erasure: erasure!,
  };
}

/**
 * Forgets an identity's memories (narrowed by scopes and metadata when given, always within the key's
 * scopes) in every namespace the principal may use, in one transaction: all of them and the receipt, or
 * nothing. A namespace not granted, or of another organization, is never searched.
 */
async function forgetInEveryNamespace(principal: Principal, body: ForgetBody): Promise<Forgotten> {
  const scopes = effectiveScopes(principal.scopes, body.scopes);
  const orgId = principal.orgId;
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const usable = await tx.namespace.findMany({
      where: namespaceAccess(principal),
      select: { id: true, name: true },
      orderBy: [{ name: "asc" }, { id: "asc" }],
    });
    // Only the namespaces holding the identity's memories are searched one by one.
    const holding = await tx.$queryRawUnsafe<{ namespace_id: string }[]>(
      `SELECT DISTINCT namespace_id FROM memories
       WHERE org_id = $1 AND identity_id = $2 AND namespace_id = ANY($3::text[])`,
      orgId,
      body.identity_id,
      usable.map((ns) => ns.id),
    );
    const holdingIds = new Set(holding.map((row) => row.namespace_id));
    const erased: ErasedNamespace[] = [];
    const memoryIds: string[] = [];
    for (const namespace of usable.filter((ns) => holdingIds.has(ns.id))) {
      const ids = await memoriesSelectedForDeletion(tx, {
        orgId,
        namespaceId: namespace.id,
        scopes,
        identityId: body.identity_id,
        metadata: body.metadata,
      });
      if (ids.length === 0) continue;
      const chunksDeleted = await deleteMemories(tx, orgId, namespace.id, ids);
      erased.push({ namespaceId: namespace.id, name: namespace.name, memoriesDeleted: ids.length, chunksDeleted });
      memoryIds.push(...ids);
    }
    const erasure = await recordErasure(tx, principal, {
      kind: "forget",
      namespaceId: null,
      namespaces: erased,
      selector: { ...selectorOf(body, scopes), namespaces_searched: usable.length },
    });
    await auditForget(tx, principal, erasure);
    const forgotten = {
      deleted: memoryIds.length,
      memoryIds,
      namespaces: erased.map((ns) => ({ namespaceId: ns.namespaceId, deleted: ns.memoriesDeleted })),
      erasure,
    };
    await keepAnswerWithWrite(tx, 200, forgetResultJson(forgotten));
    return forgotten;
  });
}

/** The forget operation's answer (ForgetResultSchema). */
export function forgetResultJson(forgotten: Forgotten) {
  return {
    deleted: forgotten.deleted,
    memory_ids: forgotten.memoryIds,
    namespaces: forgotten.namespaces.map((ns) => ({ namespace_id: ns.namespaceId, deleted: ns.deleted })),
    erasure_id: forgotten.erasure.id,
  };
}
