// The time limit of one extraction. The race answers on time even while a library is busy; the signal lets
// the extractor stop its own work (next page, queued OCR) instead of running on unseen after the answer.
import { DocumentUnreadableError } from "./types";

export async function withinTimeLimit<T>(timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const seconds = timeoutMs >= 1000 ? Math.round(timeoutMs / 100) / 10 : timeoutMs / 1000;
  const timedOut = new DocumentUnreadableError(
    `Reading the document took longer than ${seconds} s, so it was stopped.`,
  );
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(timedOut);
      reject(timedOut);
    }, timeoutMs);
  });
  const running = work(controller.signal);
  // Whatever the work does after losing the race (often: fail on the aborted signal) is not anyone's error.
  running.catch(() => {});
  try {
    return await Promise.race([running, expiry]);
  } finally {
    clearTimeout(timer);
  }
}
