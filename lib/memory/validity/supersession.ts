// A memory's validity (event time: valid_at … invalid_at) and the memory that replaced it. One memory closes
// another here only: remember (fact_key, supersedes, an inference), PATCH and forgetting the one that replaced it
// all come through these functions, which keep the chunks' copies (what recall reads) equal to the memory's.
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { recordMemoryEvents } from "@/lib/event-recording/record-events";

/**
 * How a memory came to be closed: `fact_key` (a newer memory of its slot), `named` (a memory's `supersedes`),
 * `inferred` (remember found a newer statement of the same slot by itself: recall demotes rather than hides
 * it), `model` (a chat model's decision) or `caller` (PATCH set its invalid_at).
 */
export type SupersessionKind = "fact_key" | "named" | "inferred" | "model" | "caller";

export interface Supersession {
  kind: SupersessionKind;
  /** What decided an inference: how alike the two statements are (cosine, 0 to 1) and what else it weighed. */
  similarity?: number;
  basis?: string;
}

export interface Closing {
  memoryId: string;
  invalidAt: Date | null;
  /** The memory that replaced it; null when it was closed without one (or reopened). */
  supersededBy: string | null;
  supersession: Supersession | null;
}

/** The first key of the slot lock (the second is the slot's hash): writes to one slot take turns. */
const SLOT_LOCK = 0x6d677376;

/**
 * Takes, until the transaction ends, the lock of a slot (a namespace's identity and fact_key, or the identity
 * alone for an inference), so that two writes to it at once do not both close the memory that held and
 * leave two current. Taken before any memory of it is changed.
 */
export async function lockSlot(tx: Tx, namespaceId: string, slot: string): Promise<void> {
  await tx.$executeRaw(
    Prisma.sql`SELECT 1 FROM pg_advisory_xact_lock(${SLOT_LOCK}::int, hashtext(${`${namespaceId}\u001f${slot}`}))`,
  );
}

/**
 * Sets memories' validity (invalid_at, superseded_by, supersession) and their chunks' copies; a memory newly
 * closed by another is a `memory.superseded` event (with the memory that replaced it and how). Memories of
 * another organization are never touched.
 */
export async function closeMemories(tx: Tx, orgId: string, closings: Closing[]): Promise<void> {
  for (const closing of closings) {
    const changed = await tx.$queryRaw<{ id: string }[]>(
      Prisma.sql`UPDATE memories SET invalid_at = ${closing.invalidAt}, superseded_by = ${closing.supersededBy},
                        supersession = ${closing.supersession ? JSON.stringify(closing.supersession) : null}::jsonb,
                        updated_at = now()
                 WHERE org_id = ${orgId} AND id = ${closing.memoryId}
                 RETURNING id`,
    );
    if (changed.length === 0) continue;
    await tx.$executeRaw(
      Prisma.sql`UPDATE memory_chunks SET invalid_at = ${closing.invalidAt}, superseded_by = ${closing.supersededBy},
                        supersession_kind = ${closing.supersession?.kind ?? null}
                 WHERE org_id = ${orgId} AND memory_id = ${closing.memoryId}`,
    );
    if (closing.supersededBy !== null && closing.supersession?.kind !== "caller") {
      await recordMemoryEvents(tx, orgId, "memory.superseded", [closing.memoryId], {
        superseded_by: closing.supersededBy,
        invalid_at: closing.invalidAt?.toISOString() ?? null,
        kind: closing.supersession?.kind,
      });
    }
  }
}

/**
 * Before memories are deleted: each memory one of them had replaced takes over how the deleted one was closed
 * (holds again if that one held, or is closed by what replaced that one), so forgetting a correction brings
 * back what it corrected. Followed through chains of deleted memories.
 */
export async function reopenReplacedBy(tx: Tx, orgId: string, deletedIds: string[]): Promise<void> {
  for (let hop = 0; hop < 100; hop++) {
    const reopened = await tx.$queryRaw<{ id: string; invalid_at: Date | null; superseded_by: string | null }[]>(
      Prisma.sql`UPDATE memories p SET invalid_at = d.invalid_at, superseded_by = d.superseded_by,
                        supersession = d.supersession, updated_at = now()
                 FROM memories d
                 WHERE d.org_id = ${orgId} AND d.id = ANY(${deletedIds}::text[])
                   AND p.org_id = ${orgId} AND p.superseded_by = d.id AND NOT p.id = ANY(${deletedIds}::text[])
                 RETURNING p.id, p.invalid_at, p.superseded_by`,
    );
    if (reopened.length === 0) return;
    await tx.$executeRaw(
      Prisma.sql`UPDATE memory_chunks c SET invalid_at = m.invalid_at, superseded_by = m.superseded_by,
                        supersession_kind = m.supersession->>'kind'
                 FROM memories m
                 WHERE m.org_id = ${orgId} AND m.id = ANY(${reopened.map((r) => r.id)}::text[])
                   AND c.org_id = ${orgId} AND c.memory_id = m.id`,
    );
    if (!reopened.some((r) => r.superseded_by !== null && deletedIds.includes(r.superseded_by))) return;
  }
}

/** A memory row with the ids of the memories it replaced (`supersedes`), oldest first. */
export async function withSupersedes<Row extends { id: string; orgId: string }>(
  row: Row,
): Promise<Row & { supersedes: string[] }> {
  const prisma = await db();
  const replaced = await prisma.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT id FROM memories WHERE org_id = ${row.orgId} AND superseded_by = ${row.id} ORDER BY valid_at, id`,
  );
  return { ...row, supersedes: replaced.map((r) => r.id) };
}

/**
 * Links imported memories to the memories of the same import that replaced them (`by`, their new ids), with their
 * chunks' copies: an export line names what replaced it by the id it had where it was exported.
 */
export async function linkReplacements(tx: Tx, orgId: string, links: { id: string; by: string }[]): Promise<void> {
  if (links.length === 0) return;
  const ids = links.map((link) => link.id);
  const bys = links.map((link) => link.by);
  await tx.$executeRaw(
    Prisma.sql`UPDATE memories m SET superseded_by = l.by
               FROM unnest(${ids}::text[], ${bys}::text[]) AS l(id, by)
               WHERE m.org_id = ${orgId} AND m.id = l.id`,
  );
  await tx.$executeRaw(
    Prisma.sql`UPDATE memory_chunks c SET superseded_by = l.by
               FROM unnest(${ids}::text[], ${bys}::text[]) AS l(id, by)
               WHERE c.org_id = ${orgId} AND c.memory_id = l.id`,
  );
}
