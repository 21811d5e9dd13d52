import { actorOf, type Principal } from "@/lib/auth/principal";
import { recordAudit } from "@/lib/audit/audit";
import type { Tx } from "@/lib/db";
import type { Erasure } from "@/lib/erasure-receipts/erasure";
import { erasureAuditDetails } from "@/lib/erasure-receipts/record-erasure";

export interface Forgotten {
  deleted: number;
  memoryIds: string[];
  /** Per namespace searched: one for a forget in a namespace, those deleted from for all_namespaces. */
  namespaces: { namespaceId: string; deleted: number }[];
  erasure: Erasure;
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

/** The audit entry of a forget through the API or MCP, pointing at its receipt. */
export async function auditForget(tx: Tx, principal: Principal, erasure: Erasure) {
  await recordAudit(tx, {
    orgId: principal.orgId,
    actor: actorOf(principal),
    action: "memory.forget",
    targetType: "erasure",
    targetId: erasure.id,
    details: erasureAuditDetails(erasure),
  });
}
