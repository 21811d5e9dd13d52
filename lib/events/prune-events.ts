import { setting } from "@/lib/config";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

const EVENTS_PER_STATEMENT = 5_000;

/**
 * Deletes events older than EVENT_RETENTION_DAYS (their deliveries with them), a bounded batch per statement
 * so that a large backlog never holds the database for long. Returns how many went.
 */
export async function pruneEvents(): Promise<number> {
  const prisma = await db();
  const days = setting("EVENT_RETENTION_DAYS");
  let deleted = 0;
  for (;;) {
    const count = await prisma.$executeRaw(
      Prisma.sql`DELETE FROM events WHERE id IN (
                   SELECT id FROM events WHERE created_at < now() - ${days} * interval '1 day'
                   LIMIT ${EVENTS_PER_STATEMENT})`,
    );
    deleted += count;
    if (count < EVENTS_PER_STATEMENT) return deleted;
  }
}
