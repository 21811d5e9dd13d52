import type { Scopes } from "@/lib/auth/scopes";
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { placeInSlot } from "./slots";
import { closeMemories } from "./supersession";

/** What PATCH /memories/{id} changes of validity (an absent field stays as it is). */
export interface ValidityChanges {
  valid_at?: string;
  /** null: holds again (undoes a supersession, an inferred one too). */
  invalid_at?: string | null;
  /** null clears it. */
  fact_key?: string | null;
}

interface Current {
  id: string;
  namespaceId: string;
  identityId: string | null;
  scopes: unknown;
  validAt: Date;
  invalidAt: Date | null;
  supersededBy: string | null;
  factKey: string | null;
}

/** The validity changes that differ from the memory's; undefined when none does. */
export function validityChanged(memory: Current, changes: ValidityChanges): ValidityChanges | undefined {
  const differs: ValidityChanges = {};
  if (changes.valid_at !== undefined && Date.parse(changes.valid_at) !== memory.validAt.getTime())
    differs.valid_at = changes.valid_at;
  if (
    changes.invalid_at !== undefined &&
    (changes.invalid_at === null ? null : Date.parse(changes.invalid_at)) !== (memory.invalidAt?.getTime() ?? null)
  )
    differs.invalid_at = changes.invalid_at;
  if (changes.fact_key !== undefined && changes.fact_key !== memory.factKey) differs.fact_key = changes.fact_key;
  return Object.keys(differs).length > 0 ? differs : undefined;
}

/**
 * Applies validity changes to a memory locked by the caller's transaction: valid_at (its chunks' copies too);
 * invalid_at, which closes it as its caller's decision (kind `caller`, keeping what replaced it, if anything did)
 * or, null, makes it hold again; fact_key, which places a memory that holds in its new slot (placeInSlot).
 */
export async function patchValidity(tx: Tx, orgId: string, memory: Current, changes: ValidityChanges): Promise<void> {
  if (changes.valid_at !== undefined) {
    await tx.$executeRaw(
      Prisma.sql`UPDATE memories SET valid_at = ${changes.valid_at}::timestamptz
                 WHERE org_id = ${orgId} AND id = ${memory.id}`,
    );
    await tx.$executeRaw(
      Prisma.sql`UPDATE memory_chunks SET valid_at = ${changes.valid_at}::timestamptz
                 WHERE org_id = ${orgId} AND memory_id = ${memory.id}`,
    );
  }
  if (changes.invalid_at !== undefined) {
    const reopened = changes.invalid_at === null;
    await closeMemories(tx, orgId, [
      {
        memoryId: memory.id,
        invalidAt: reopened ? null : new Date(changes.invalid_at!),
        supersededBy: reopened ? null : memory.supersededBy,
        supersession: reopened ? null : { kind: "caller" },
      },
    ]);
  }
  if (changes.fact_key !== undefined) {
    await tx.$executeRaw(
      Prisma.sql`UPDATE memories SET fact_key = ${changes.fact_key} WHERE org_id = ${orgId} AND id = ${memory.id}`,
    );
    const holds = changes.invalid_at === null || (changes.invalid_at === undefined && memory.invalidAt === null);
    if (changes.fact_key !== null && holds) {
      await placeInSlot(tx, orgId, {
        id: memory.id,
        namespaceId: memory.namespaceId,
        identityId: memory.identityId,
        scopes: memory.scopes as Scopes,
        factKey: changes.fact_key,
        validAt: changes.valid_at ? new Date(changes.valid_at) : memory.validAt,
      });
    }
  }
}
