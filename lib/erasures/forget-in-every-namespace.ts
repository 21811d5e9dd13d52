import { namespaceAccess, type Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { eraseDocuments } from "@/lib/memory/store/document-erasure";
import { Prisma } from "@/lib/generated/prisma/client";
import { keepAnswerWithWrite } from "@/lib/http/request-writes";
import { deleteMemories } from "@/lib/memory/store/deletion";
import { memoriesSelectedForDeletion } from "@/lib/memory/forget/deletion-selection";
import type { ForgetBody } from "@/lib/memory/forget/forget-body";
import { effectiveScopes } from "@/lib/memory/common/scopes";
import { auditForget, forgetResultJson, type Forgotten } from "./forget-result";
import type { ErasedNamespace } from "@/lib/erasure-receipts/erasure";
import { forgetSelector } from "@/lib/erasure-receipts/forget-receipt";
import { recordErasure } from "@/lib/erasure-receipts/record-erasure";

/**
 * Forgets an identity's memories (narrowed by scopes and metadata when given, always within the key's
 * scopes) in every namespace the principal may use, in one transaction: all of them and the receipt, or
 * nothing. A namespace not granted, or of another organization, is never searched.
 */
export async function forgetInEveryNamespace(principal: Principal, body: ForgetBody): Promise<Forgotten> {
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
    const holding = await tx.$queryRaw<{ namespace_id: string }[]>(
      Prisma.sql`SELECT DISTINCT namespace_id FROM memories
                 WHERE org_id = ${orgId} AND identity_id = ${body.identity_id}
                   AND namespace_id = ANY(${usable.map((ns) => ns.id)}::text[])`,
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
      const { chunksDeleted, factsDeleted } = await deleteMemories(tx, orgId, namespace.id, ids, { reason: "erasure" });
      erased.push({
        namespaceId: namespace.id,
        name: namespace.name,
        memoriesDeleted: ids.length + factsDeleted,
        chunksDeleted,
        factsDeleted,
      });
      memoryIds.push(...ids);
    }
    if (body.metadata === undefined) {
      await eraseDocuments(tx, {
        orgId,
        namespaceIds: usable.map((ns) => ns.id),
        identityId: body.identity_id,
        scopes,
      });
    }
    const erasure = await recordErasure(tx, principal, {
      kind: "forget",
      namespaceId: null,
      namespaces: erased,
      selector: { ...forgetSelector(body, scopes), namespaces_searched: usable.length },
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
