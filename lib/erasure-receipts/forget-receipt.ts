import type { Principal } from "@/lib/auth/principal";
import type { Scopes } from "@/lib/auth/scopes";
import type { Tx } from "@/lib/db";
import type { Erasure, ErasureSelector } from "./erasure";
import { recordErasure } from "./record-erasure";

/**
 * What a forget asks for, as its receipt keeps it (the fields of ForgetBody, lib/memory/common/schemas.ts, that
 * select: this folder sits below lib/memory, so it names them instead of importing the schema).
 */
export interface ForgetSelection {
  memory_ids?: string[];
  identity_id?: string;
  metadata?: Record<string, unknown>;
  all?: true;
  all_namespaces?: true;
}

/** What a forget asked for, as its receipt keeps it: the scopes applied (the key's included), ids counted. */
export function forgetSelector(body: ForgetSelection, scopes: Scopes): ErasureSelector {
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
  body: ForgetSelection,
  forgotten: {
    namespace: { id: string; name: string };
    memoryIds: string[];
    chunksDeleted: number;
    factsDeleted: number;
    scopes: Scopes;
  },
): Promise<Erasure> {
  return recordErasure(tx, principal, {
    kind: "forget",
    namespaceId: forgotten.namespace.id,
    namespaces: [
      {
        namespaceId: forgotten.namespace.id,
        name: forgotten.namespace.name,
        memoriesDeleted: forgotten.memoryIds.length + forgotten.factsDeleted,
        chunksDeleted: forgotten.chunksDeleted,
        factsDeleted: forgotten.factsDeleted,
      },
    ],
    selector: forgetSelector(body, forgotten.scopes),
  });
}
