import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/** The first key of the namespace statistics lock (the second is the namespace id's hash). */
const NAMESPACE_STATISTICS_LOCK = 0x6d676e73;

/**
 * Taken, until the transaction ends, before a namespace's search statistics change (its totals row, its terms'
 * and its scope signatures' document frequencies). Those rows were locked in whatever order each statement's
 * plan met them, and concurrent forgets of one namespace deadlocked on PostgreSQL (40P01, a 500); the totals row
 * already made such transactions take turns from their first change to their commit, so taking turns from the
 * start costs no concurrency. Also taken before the namespace's entities change (entities/link-entities.ts):
 * a mention merges into an entity or an alias by what the namespace holds when that is decided. Always after
 * the memories a transaction changes are locked (deleteMemories, updates, re-extraction), never before.
 */
export async function lockNamespaceStatistics(tx: Tx, namespaceId: string): Promise<void> {
  await tx.$executeRaw(
    Prisma.sql`SELECT 1 FROM pg_advisory_xact_lock(${NAMESPACE_STATISTICS_LOCK}::int, hashtext(${namespaceId}))`,
  );
}
