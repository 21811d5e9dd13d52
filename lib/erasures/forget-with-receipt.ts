// Forgetting as a deletion request that leaves proof: every forget (API and MCP), in one namespace or in
// every namespace the principal may write (`all_namespaces`, lib/erasures/forget-in-every-namespace.ts),
// writes an erasure receipt (lib/erasure-receipts) and an audit entry in the transaction that deletes, so
// the receipt exists exactly when the deletion happened and says exactly what it deleted.
import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { keepAnswerWithWrite } from "@/lib/http/request-writes";
import { forget } from "@/lib/memory/forget/forget";
import type { ForgetBody } from "@/lib/memory/forget/forget-body";
import { forgetInEveryNamespace } from "./forget-in-every-namespace";
import { auditForget, forgetResultJson, type Forgotten } from "./forget-result";
import type { Erasure } from "@/lib/erasure-receipts/erasure";
import { recordForgetReceipt } from "@/lib/erasure-receipts/forget-receipt";

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
