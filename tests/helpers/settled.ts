import { vi } from "vitest";
import { db } from "@/lib/db";
import { SETTLE_WAIT_MAX_MS } from "@/lib/events/webhooks/deliver";

/**
 * Waits until every transaction open now has ended: the event feed and webhook deliveries hold back what
 * committed behind one (lib/events/event-access.ts), and on a PostgreSQL server that is a transaction of any of
 * its databases (another test file's too).
 */
export async function settled(timeoutMs = 30_000): Promise<void> {
  const prisma = await db();
  const [{ now }] = await prisma.$queryRaw<{ now: string }[]>`SELECT pg_current_xact_id()::text AS now`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ done }] = await prisma.$queryRaw<{ done: boolean }[]>`
      SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint > ${BigInt(now)} AS done`;
    if (done) return;
    if (Date.now() > deadline) throw new Error(`A transaction older than ${now} is still open.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits for every transaction open now to end (settled), then for `assertion` to pass within `timeoutMs` more
 * than the longest a delivery run waits before looking again at held-back events (SETTLE_WAIT_MAX_MS). On
 * PostgreSQL another test file's transaction, open when the events were written, holds their delivery back
 * (lib/events/webhooks/deliver.ts); a bare 5 s wait failed when one stayed open for seconds.
 */
export async function settledThenDelivered(assertion: () => void, timeoutMs = 5_000): Promise<void> {
  await settled();
  await vi.waitFor(assertion, { timeout: timeoutMs + SETTLE_WAIT_MAX_MS });
}
