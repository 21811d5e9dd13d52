import { isBackgroundWork, type Principal } from "@/lib/auth/principal";
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { recordEvents } from "@/lib/event-recording/record-events";
import { newId } from "@/lib/ids";
import { actorOfPrincipal, type Erasure, type ErasureActor, type ErasureInput } from "./erasure";
import { erasedNamespaceJson } from "./erasure-json";

/**
 * Who is deleting, named as they are now: the receipt keeps the name, since it must still say who it was
 * after the key is revoked or the user has left.
 */
async function actorNamed(tx: Tx, principal: Principal): Promise<ErasureActor> {
  const actor = actorOfPrincipal(principal);
  if (principal.kind === "api_key") return { ...actor, name: principal.name };
  if (isBackgroundWork(principal)) return { ...actor, name: null };
  const user = await tx.user.findUnique({ where: { id: principal.userId }, select: { email: true } });
  return { ...actor, name: user?.email ?? null };
}

/**
 * Writes the receipt of a deletion, with `tx`: the transaction that deleted. A deletion made of several
 * transactions (the console's forgetting of an identity, a batch at a time) passes the same `id` to each:
 * the receipt is replaced by the latest totals, each time with the batch that made them.
 */
export async function recordErasure(
  tx: Tx,
  principal: Principal,
  input: ErasureInput,
  id: string = newId("era"),
): Promise<Erasure> {
  const actor = await actorNamed(tx, principal);
  const erasure: Erasure = {
    id,
    kind: input.kind,
    namespaceId: input.namespaceId,
    namespaces: input.namespaces,
    selector: input.selector,
    memoriesDeleted: input.namespaces.reduce((sum, ns) => sum + ns.memoriesDeleted, 0),
    chunksDeleted: input.namespaces.reduce((sum, ns) => sum + ns.chunksDeleted, 0),
    factsDeleted: input.namespaces.reduce((sum, ns) => sum + (ns.factsDeleted ?? 0), 0),
    actor,
    createdAt: new Date(),
  };
  await tx.$executeRaw(
    Prisma.sql`INSERT INTO erasures (id, org_id, kind, namespace_id, namespaces, selector, memories_deleted,
                                     chunks_deleted, actor_kind, actor_id, actor_name, created_at)
               VALUES (${erasure.id}, ${principal.orgId}, ${erasure.kind}, ${erasure.namespaceId},
                       ${JSON.stringify(erasure.namespaces.map(erasedNamespaceJson))}::jsonb,
                       ${JSON.stringify(erasure.selector)}::jsonb, ${erasure.memoriesDeleted}, ${erasure.chunksDeleted},
                       ${actor.kind}, ${actor.id}, ${actor.name}, ${erasure.createdAt.toISOString()}::timestamptz)
               ON CONFLICT (id) DO UPDATE
                 SET namespaces = EXCLUDED.namespaces, memories_deleted = EXCLUDED.memories_deleted,
                     chunks_deleted = EXCLUDED.chunks_deleted
                 WHERE erasures.org_id = EXCLUDED.org_id`,
  );
  if (!input.partial) {
    await recordEvents(tx, principal.orgId, [
      {
        type: "erasure.completed",
        namespaceId: erasure.namespaceId,
        identityId: erasure.selector.identity_id ?? null,
        data: {
          erasure_id: erasure.id,
          kind: erasure.kind,
          selector: erasure.selector,
          memories_deleted: erasure.memoriesDeleted,
          facts_deleted: erasure.factsDeleted,
          namespaces: erasure.namespaces.map((ns) => ({
            namespace_id: ns.namespaceId,
            memories_deleted: ns.memoriesDeleted,
          })),
        },
      },
    ]);
  }
  return erasure;
}

/** What an audit entry of a deletion says of its receipt (the console's audit log shows it). */
export function erasureAuditDetails(erasure: Erasure): Record<string, unknown> {
  return {
    erasure_id: erasure.id,
    selector: erasure.selector,
    memories_deleted: erasure.memoriesDeleted,
    chunks_deleted: erasure.chunksDeleted,
    facts_deleted: erasure.factsDeleted,
    namespaces: erasure.namespaces.map(erasedNamespaceJson),
  };
}
