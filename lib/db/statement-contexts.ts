// Which of the server's statements may go before others, carried by the async context of the work that sends
// them (only statements sent with queryRows: Prisma's client does not keep the async context through to the
// connection). The embedded database's one session orders its waiting statements by it (lib/db/pglite-thread.ts);
// on PostgreSQL background work has connections of its own (lib/db/index.ts).
import { AsyncLocalStorage } from "node:async_hooks";

const aheadOfTransactions = new AsyncLocalStorage<true>();
const backgroundWork = new AsyncLocalStorage<true>();

/**
 * Runs `work` with its statements outside transactions going ahead of the embedded database's waiting
 * transactions (after the one running): for background work that must keep pace with a stream of writes,
 * such as webhook deliveries, each recorded before the next is sent, which would otherwise wait behind every
 * queued write. Its transactions wait their turn; on PostgreSQL nothing changes.
 */
export function aheadOfWaitingTransactions<T>(work: () => Promise<T>): Promise<T> {
  return aheadOfTransactions.run(true, work);
}

export const isAheadOfWaitingTransactions = () => aheadOfTransactions.getStore() === true;

/**
 * Runs `work`, background work that must keep pace with a stream of requests without slowing them (the
 * webhook delivery workers). On PostgreSQL its statements go through a pool of BACKGROUND_CONNECTIONS beside the
 * requests' (in the requests' pool each would wait behind every queued request's statement). On the embedded
 * database, whose one session the requests share, they let the transactions waiting there go first, for
 * BACKGROUND_YIELDS_AT_MOST_MS at most (a stream of writes does not hold them back for longer).
 */
export function onBackgroundConnections<T>(work: () => Promise<T>): Promise<T> {
  return backgroundWork.run(true, work);
}

export const isBackgroundWork = () => backgroundWork.getStore() === true;

const bulkTransfer = new AsyncLocalStorage<true>();

/**
 * Runs `work`, the statements of a transfer (an original's parts, written by an upload or read by a download),
 * each large and many in a row. On the embedded database they let the statements that come after them go first,
 * for BACKGROUND_YIELDS_AT_MOST_MS at most, as background work's do: another organization's recall waited behind
 * the storm's 2 MiB reads at each of its statements. On PostgreSQL, whose connections run statements side by
 * side, nothing changes (they stay in the requests' pool: the background one is the webhook workers').
 */
export function asBulkTransfer<T>(work: () => Promise<T>): Promise<T> {
  return bulkTransfer.run(true, work);
}

/** Whether a statement sent now lets those that come after it go first (on the embedded database). */
export const yieldsToOthers = () => backgroundWork.getStore() === true || bulkTransfer.getStore() === true;

/** Runs `work` as a request's work, though called from background work. */
export function outsideBackgroundWork<T>(work: () => T): T {
  return backgroundWork.exit(work);
}

/**
 * Connections to PostgreSQL of onBackgroundConnections, per instance (beside DATABASE_POOL_SIZE): one for each
 * of the four webhook delivery workers (a statement of each may wait on a row lock that a long write holds) and
 * one for their group-committed records.
 */
export const BACKGROUND_CONNECTIONS = 5;

export const BACKGROUND_YIELDS_AT_MOST_MS = 100;
