// What the gateway holds about one identity (the `identity_id` an app sends: a user of the app), and
// forgetting it: the erasure people ask for under the GDPR.
import {
  actorOf,
  assertNamespaceWideAllowed,
  assertPermission,
  namespaceAccess,
  type Principal,
} from "@/lib/auth/principal";
import { recordAudit } from "@/lib/audit/audit";
import { db, type Tx } from "@/lib/db";
import { eraseDocuments } from "../store/document-erasure";
import { newId } from "@/lib/ids";
import type { ErasedNamespace } from "@/lib/erasure-receipts/erasure";
import { recordErasure } from "@/lib/erasure-receipts/record-erasure";
import { deleteMemories } from "../store/deletion";

export const IDENTITY_MEMORIES_SHOWN = 50;
const PREVIEW_CHARS = 200;
/** Memories deleted per transaction: PGlite has one connection, so other requests wait at most one batch. */
const FORGET_BATCH = 500;

/** The scopes condition of a key with scopes (a person has none): the memories it may see carry them all. */
function scopeConditions(principal: Principal) {
  return Object.entries(principal.scopes).map(([name, value]) => ({ scopes: { path: [name], equals: value } }));
}

/**
 * The newest memories carrying this identity in the namespaces the principal may see (content cut to a
 * preview), with how many there are in all.
 */
export async function identityMemories(principal: Principal, identityId: string) {
  const prisma = await db();
  const where = {
    orgId: principal.orgId,
    identityId,
    namespace: namespaceAccess(principal),
    AND: scopeConditions(principal),
    // An expired memory is never shown, also before the sweep deletes it.
    OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }],
  };
  const [total, memories] = await Promise.all([
    prisma.memory.count({ where }),
    prisma.memory.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: IDENTITY_MEMORIES_SHOWN,
      select: {
        id: true,
        namespaceId: true,
        content: true,
        createdAt: true,
        namespace: { select: { name: true } },
      },
    }),
  ]);
  return {
    total,
    memories: memories.map((memory) => ({
      id: memory.id,
      namespaceId: memory.namespaceId,
      namespaceName: memory.namespace.name,
      preview: memory.content.length > PREVIEW_CHARS ? `${memory.content.slice(0, PREVIEW_CHARS)}…` : memory.content,
      createdAt: memory.createdAt,
    })),
  };
}

export interface ForgottenIdentity {
  deleted: number;
  namespaces: { id: string; name: string; deleted: number }[];
  /** The erasure receipt (GET /erasures), kept up to date by every batch's transaction. */
  erasureId: string;
}

/**
 * Deletes every memory of `identityId` in the namespaces the principal may manage (NAMESPACE_MANAGE:
 * owners and admins, every namespace of the organization; a member may manage none and is refused), through
 * the same deletion as forget (chunks, vectors, term statistics). Audited as "identity.forget" with the
 * namespaces and the count, also when nothing was found (the request itself is on record). Deleted a batch
 * per transaction; if a batch fails, what was deleted before it is audited (marked incomplete) and the
 * error is thrown: running it again deletes the rest. Its erasure receipt is written with the first batch and
 * brought up to date by each next one, in that batch's transaction: it always says what was deleted.
 */
export async function forgetIdentity(principal: Principal, identityId: string): Promise<ForgottenIdentity> {
  assertPermission(
    principal,
    "NAMESPACE_MANAGE",
    () => "Forgetting an identity needs the NAMESPACE_MANAGE permission, which this API key does not have.",
  );
  assertNamespaceWideAllowed(principal, "forgetting an identity");
  const prisma = await db();
  const orgId = principal.orgId;
  const namespaces = await prisma.namespace.findMany({
    where: { ...namespaceAccess(principal), memories: { some: { orgId, identityId } } },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
  const done: ForgottenIdentity["namespaces"] = [];
  const erasureId = newId("era");
  // What the receipt says: only batches whose transaction committed.
  const erased: ErasedNamespace[] = [];
  const writeReceipt = (tx: Tx, namespaces: ErasedNamespace[], partial?: true) =>
    recordErasure(
      tx,
      principal,
      {
        kind: "forget",
        namespaceId: null,
        namespaces,
        selector: { identity_id: identityId, all_namespaces: true },
        partial,
      },
      erasureId,
    );
  const audit = (details: Record<string, unknown>) =>
    prisma.$transaction(async (tx) => {
      // An erasure that stopped part-way is not completed: its receipt says what went, no event says it is done.
      await writeReceipt(tx, erased, details.incomplete === true ? true : undefined);
      await recordAudit(tx, {
        orgId,
        actor: actorOf(principal),
        action: "identity.forget",
        targetType: "identity",
        targetId: identityId,
        details: { ...details, erasure_id: erasureId },
      });
    });
  const total = () => done.reduce((sum, namespace) => sum + namespace.deleted, 0);
  try {
    for (const namespace of namespaces) {
      const entry = { id: namespace.id, name: namespace.name, deleted: 0 };
      done.push(entry);
      for (;;) {
        const { deleted, next } = await prisma.$transaction(async (tx) => {
          const batch = await tx.memory.findMany({
            where: { orgId, namespaceId: namespace.id, identityId },
            select: { id: true },
            take: FORGET_BATCH,
          });
          const { chunksDeleted, factsDeleted } = await deleteMemories(
            tx,
            orgId,
            namespace.id,
            batch.map((memory) => memory.id),
            { reason: "erasure" },
          );
          const next = withBatch(erased, namespace, {
            memories: batch.length,
            chunks: chunksDeleted,
            facts: factsDeleted,
          });
          if (batch.length > 0) await writeReceipt(tx, next, true);
          return { deleted: batch.length + factsDeleted, next };
        });
        erased.splice(0, erased.length, ...next);
        entry.deleted += deleted;
        if (deleted < FORGET_BATCH) break;
      }
    }
    // The identity's documents (originals and extracted text), processed or not, in every namespace reached.
    const reachable = await prisma.namespace.findMany({ where: namespaceAccess(principal), select: { id: true } });
    await prisma.$transaction((tx) =>
      eraseDocuments(tx, { orgId, namespaceIds: reachable.map((ns) => ns.id), identityId, scopes: {} }),
    );
  } catch (error) {
    if (total() > 0) await audit({ namespaces: done, deleted: total(), incomplete: true }).catch(() => undefined);
    throw error;
  }
  await audit({ namespaces: done, deleted: total() });
  return { deleted: total(), namespaces: done, erasureId };
}

/** A receipt's namespaces with one more batch counted in. */
function withBatch(
  erased: ErasedNamespace[],
  namespace: { id: string; name: string },
  batch: { memories: number; chunks: number; facts: number },
): ErasedNamespace[] {
  if (batch.memories === 0) return erased;
  const known = erased.find((ns) => ns.namespaceId === namespace.id) ?? {
    namespaceId: namespace.id,
    name: namespace.name,
    memoriesDeleted: 0,
    chunksDeleted: 0,
    factsDeleted: 0,
  };
  const counted = {
    ...known,
    memoriesDeleted: known.memoriesDeleted + batch.memories + batch.facts,
    chunksDeleted: known.chunksDeleted + batch.chunks,
    factsDeleted: (known.factsDeleted ?? 0) + batch.facts,
  };
  return erased.includes(known) ? erased.map((ns) => (ns === known ? counted : ns)) : [...erased, counted];
}
