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
import { db } from "@/lib/db";
import { deleteMemories } from "./memories";

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
}

/**
 * Deletes every memory of `identityId` in the namespaces the principal may manage (NAMESPACE_MANAGE:
 * owners and admins, every namespace of the organization; a member may manage none and is refused), through
 * the same deletion as forget (chunks, vectors, term statistics). Audited as "identity.forget" with the
 * namespaces and the count, also when nothing was found (the request itself is on record). Deleted a batch
 * per transaction; if a batch fails, what was deleted before it is audited (marked incomplete) and the
 * error is thrown: running it again deletes the rest.
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
  const audit = (details: Record<string, unknown>) =>
    prisma.$transaction((tx) =>
      recordAudit(tx, {
        orgId,
        actor: actorOf(principal),
        action: "identity.forget",
        targetType: "identity",
        targetId: identityId,
        details,
      }),
    );
  const total = () => done.reduce((sum, namespace) => sum + namespace.deleted, 0);
  try {
    for (const namespace of namespaces) {
      const entry = { id: namespace.id, name: namespace.name, deleted: 0 };
      done.push(entry);
      for (;;) {
        const deleted = await prisma.$transaction(async (tx) => {
          const batch = await tx.memory.findMany({
            where: { orgId, namespaceId: namespace.id, identityId },
            select: { id: true },
            take: FORGET_BATCH,
          });
          await deleteMemories(
            tx,
            orgId,
            namespace.id,
            batch.map((memory) => memory.id),
          );
          return batch.length;
        });
        entry.deleted += deleted;
        if (deleted < FORGET_BATCH) break;
      }
    }
  } catch (error) {
    if (total() > 0) await audit({ namespaces: done, deleted: total(), incomplete: true }).catch(() => undefined);
    throw error;
  }
  await audit({ namespaces: done, deleted: total() });
  return { deleted: total(), namespaces: done };
}
