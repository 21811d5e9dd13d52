import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { memoryFilter, type ChunkFilter } from "../common/sql";

/**
 * The ids of the memories a deletion request selects, oldest first: expired ones too (not yet swept), so
 * that a deletion request leaves nothing behind.
 */
export async function memoriesSelectedForDeletion(tx: Tx, filter: ChunkFilter): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT m.id FROM memories m
               WHERE ${memoryFilter({ ...filter, includeExpired: true }, "m")}
               ORDER BY m.created_at, m.id`,
  );
  return rows.map((row) => row.id);
}
