import { actorOf, type Principal } from "@/lib/auth/principal";
import { recordAudit } from "@/lib/audit/audit";
import { notFound } from "@/lib/errors";
import { recordForgetReceipt } from "@/lib/erasure-receipts/forget-receipt";
import { forget } from "./forget";

/**
 * Deletes one memory of a namespace (the console's memory explorer), through forget: the same visibility
 * (a namespace the principal may see, within its scopes) and the same removal of chunks and term
 * statistics. Audited as `memory.delete`, with an erasure receipt, in the same transaction; a memory that is
 * not in that namespace, or not visible, is not found and nothing changes. The caller checks the permission
 * of the forget operation first (lib/console/actions/memories.ts, with the runner's check).
 */
export async function deleteMemory(principal: Principal, namespaceId: string, memoryId: string) {
  const body = { namespace_id: namespaceId, memory_ids: [memoryId] };
  await forget(principal, body, {}, async (tx, forgotten) => {
    if (forgotten.memoryIds.length === 0) throw notFound(`Memory ${memoryId}`);
    const erasure = await recordForgetReceipt(tx, principal, body, forgotten);
    await recordAudit(tx, {
      orgId: principal.orgId,
      actor: actorOf(principal),
      action: "memory.delete",
      targetType: "memory",
      targetId: memoryId,
      details: { namespace_id: forgotten.namespaceId, erasure_id: erasure.id },
    });
  });
  return { id: memoryId, deleted: true as const };
}
