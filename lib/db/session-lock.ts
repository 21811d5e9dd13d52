// The embedded database's one session, shared by the server's statements (lib/db/pglite-thread.ts): who goes next.
import { BACKGROUND_YIELDS_AT_MOST_MS, isAheadOfWaitingTransactions, yieldsToOthers } from "./statement-contexts";

/**
 * Statements outside a transaction share the session: each is sent as soon as it comes, and the thread
 * runs them in that order, so that it never waits for this thread between two statements. A transaction
 * has the session to itself from BEGIN to its end; it waits for the statements sent before it, and those
 * that come meanwhile wait for it (unless sent aheadOfWaitingTransactions). A background statement
 * (onBackgroundConnections) or a transfer's (asBulkTransfer) lets what comes after it go first until it has
 * waited BACKGROUND_YIELDS_AT_MOST_MS.
 */
export class SessionLock {
  private statements = 0;
  private transaction = false;
  private readonly waiting: {
    exclusive: boolean;
    ahead: boolean;
    /** A background statement's: until when what comes goes before it. */
    yieldsUntil: number;
    start(): void;
  }[] = [];

  shared<T>(task: () => Promise<T>): Promise<T> {
    return this.run(false, task);
  }

  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.run(true, task);
  }

  private run<T>(exclusive: boolean, task: () => Promise<T>): Promise<T> {
    return new Promise<void>((start) => {
      const ahead = !exclusive && isAheadOfWaitingTransactions();
      const now = performance.now();
      const yields = !exclusive && !ahead && yieldsToOthers();
      const goesBefore = ahead
        ? this.waiting.findIndex((waiting) => !waiting.ahead)
        : yields
          ? -1
          : this.waiting.findIndex((waiting) => waiting.yieldsUntil > now);
      this.waiting.splice(goesBefore === -1 ? this.waiting.length : goesBefore, 0, {
        exclusive,
        ahead,
        yieldsUntil: yields ? now + BACKGROUND_YIELDS_AT_MOST_MS : 0,
        start,
      });
      this.startWaiting();
    })
      .then(task)
      .finally(() => {
        if (exclusive) this.transaction = false;
        else this.statements--;
        this.startWaiting();
      });
  }

  /** Starts the waiting in order, as far as they can run together. */
  private startWaiting() {
    while (this.waiting.length && !this.transaction) {
      const next = this.waiting[0];
      if (next.exclusive && this.statements > 0) return;
      this.waiting.shift();
      if (next.exclusive) this.transaction = true;
      else this.statements++;
      next.start();
    }
  }
}
