import type { Scopes } from "@/lib/auth/scopes";
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { closeMemories, lockSlot, type Closing, type Supersession } from "./supersession";

/** A memory as validity places it: its slot (namespace, identity, scopes, fact_key) and since when it holds. */
export interface SlotMember {
  id: string;
  namespaceId: string;
  identityId: string | null;
  scopes: Scopes;
  factKey: string;
  validAt: Date;
}

interface SlotRow {
  id: string;
  valid_at: Date;
  invalid_at: Date | null;
}

/**
 * Places a memory with a fact_key among the other memories of its slot (same namespace, identity, scopes and
 * fact_key), by valid_at: the one that held before it is closed at its valid_at (unless already closed by
 * then), and if a memory of the slot started to hold after it (a statement that arrived late about an earlier
 * time), it is stored as history, closed at that one's valid_at. Of two with the same valid_at, the one stored
 * later holds. Takes the slot's lock first. Returns what it closed.
 */
export async function placeInSlot(tx: Tx, orgId: string, memory: SlotMember): Promise<Closing[]> {
  await lockSlot(tx, memory.namespaceId, `key\u001f${memory.identityId ?? ""}\u001f${memory.factKey}`);
  const others = await tx.$queryRaw<SlotRow[]>(
    Prisma.sql`SELECT id, valid_at, invalid_at FROM memories
               WHERE org_id = ${orgId} AND namespace_id = ${memory.namespaceId} AND fact_key = ${memory.factKey}
                 AND identity_id IS NOT DISTINCT FROM ${memory.identityId}
                 AND scopes = ${JSON.stringify(memory.scopes)}::jsonb AND id <> ${memory.id}
               ORDER BY valid_at, created_at, id
               FOR UPDATE`,
  );
  const at = memory.validAt.getTime();
  const before = others.filter((row) => row.valid_at.getTime() <= at).at(-1);
  const after = others.find((row) => row.valid_at.getTime() > at);
  const how: Supersession = { kind: "fact_key" };
  const closings: Closing[] = [];
  if (before && (before.invalid_at === null || before.invalid_at.getTime() > at)) {
    closings.push({ memoryId: before.id, invalidAt: memory.validAt, supersededBy: memory.id, supersession: how });
  }
  if (after)
    closings.push({ memoryId: memory.id, invalidAt: after.valid_at, supersededBy: after.id, supersession: how });
  await closeMemories(tx, orgId, closings);
  return closings;
}

/**
 * Closes the memories a new one names in `supersedes` (already checked readable by the writer: see
 * readableMemoryIds), at the new one's valid_at, or their own when that is later (a memory never ends before it
 * starts). Locked in id order. Returns what it closed.
 */
export async function closeNamed(
  tx: Tx,
  orgId: string,
  memory: { id: string; validAt: Date },
  supersedes: string[],
  how: Supersession = { kind: "named" },
): Promise<Closing[]> {
  if (supersedes.length === 0) return [];
  const rows = await tx.$queryRaw<SlotRow[]>(
    Prisma.sql`SELECT id, valid_at, invalid_at FROM memories
               WHERE org_id = ${orgId} AND id = ANY(${supersedes}::text[]) ORDER BY id FOR UPDATE`,
  );
  const closings = rows.map((row) => ({
    memoryId: row.id,
    invalidAt: new Date(Math.max(row.valid_at.getTime(), memory.validAt.getTime())),
    supersededBy: memory.id,
    supersession: how,
  }));
  await closeMemories(tx, orgId, closings);
  return closings;
}
