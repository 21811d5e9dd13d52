// Turns for document uploads and downloads, per instance: each organization may have TRANSFERS_PER_ORGANIZATION
// under way and as many waiting, every organization together TRANSFERS_MAX under way. Waiting is first come,
// first served among those whose organization is under its share, for TRANSFER_WAIT_SECONDS at most. So one
// organization's storm of 50 MB transfers holds at most its share of the database's time and the server's
// memory, and another organization's transfer gets a turn within seconds.
import { setting } from "@/lib/config";
import { BusyError, RateLimitedError } from "@/lib/errors";

interface Waiter {
  orgId: string;
  grant: () => void;
}

const running = new Map<string, number>();
const waiting: Waiter[] = [];
let runningTotal = 0;

const runningOf = (orgId: string) => running.get(orgId) ?? 0;
const waitingOf = (orgId: string) => waiting.filter((waiter) => waiter.orgId === orgId).length;

/** How long a refused transfer is told to wait: about what a 10 MB transfer takes on a busy server. */
const RETRY_AFTER_SECONDS = 5;

/** Gives back a turn taken by takeTransferSlot; calling it again does nothing. */
export type ReleaseSlot = () => void;

/**
 * A turn for one upload or download of `orgId`'s, once one is free. Refused with 429 RATE_LIMITED when the
 * organization already has its share under way and its share waiting, or when its wait for its own share
 * ends; with 503 SERVICE_UNAVAILABLE when the wait for the server's ends. Both carry `Retry-After`.
 */
export async function takeTransferSlot(orgId: string): Promise<ReleaseSlot> {
  const perOrganization = setting("TRANSFERS_PER_ORGANIZATION");
  if (runningOf(orgId) >= perOrganization && waitingOf(orgId) >= perOrganization) throw overShare(perOrganization);
  // A turn freed is handed to a waiter at once (grantWaiting): a free one now is no waiter's.
  if (canRun(orgId)) return start(orgId);
  return new Promise<ReleaseSlot>((resolve, reject) => {
    const waiter: Waiter = {
      orgId,
      grant: () => {
        clearTimeout(timer);
        resolve(start(orgId));
      },
    };
    const timer = setTimeout(
      () => {
        waiting.splice(waiting.indexOf(waiter), 1);
        reject(runningOf(orgId) >= perOrganization ? overShare(perOrganization) : serverBusy());
      },
      setting("TRANSFER_WAIT_SECONDS") * 1000,
    );
    waiting.push(waiter);
  });
}

/** Runs `work` in a turn of `orgId`'s (takeTransferSlot), given back when it settles. */
export async function withTransferSlot<T>(orgId: string, work: () => Promise<T>): Promise<T> {
  const release = await takeTransferSlot(orgId);
  try {
    return await work();
  } finally {
    release();
  }
}

function canRun(orgId: string): boolean {
  return runningTotal < setting("TRANSFERS_MAX") && runningOf(orgId) < setting("TRANSFERS_PER_ORGANIZATION");
}

function start(orgId: string): ReleaseSlot {
  running.set(orgId, runningOf(orgId) + 1);
  runningTotal += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = runningOf(orgId) - 1;
    if (left > 0) running.set(orgId, left);
    else running.delete(orgId);
    runningTotal -= 1;
    grantWaiting();
  };
}

/** Hands free turns to the longest waiting transfers whose organization is under its share. */
function grantWaiting() {
  for (let index = 0; index < waiting.length;) {
    const waiter = waiting[index];
    if (runningTotal >= setting("TRANSFERS_MAX")) return;
    if (canRun(waiter.orgId)) {
      waiting.splice(index, 1);
      waiter.grant();
    } else index += 1;
  }
}

function overShare(perOrganization: number) {
  return new RateLimitedError(
    `Your organization has ${perOrganization} document uploads or downloads under way and as many waiting: ` +
      `send this one once one of them is done.`,
    RETRY_AFTER_SECONDS,
  );
}

function serverBusy() {
  return new BusyError(
    "The server has as many document uploads and downloads under way as it takes; nothing was changed. " +
      "Try again shortly.",
    RETRY_AFTER_SECONDS,
  );
}

/** What is under way and waiting, for tests and diagnostics. */
export function transferSlotsInUse(): { running: number; waiting: number } {
  return { running: runningTotal, waiting: waiting.length };
}
