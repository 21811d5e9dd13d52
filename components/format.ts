// Dates as the console prints them: in UTC, the same in the server's HTML and the browser's.

/** `2026-11-23 01:30 UTC`, or `fallback` when there is no date. */
export function formatUtc(date: Date | string | null | undefined, fallback = "—"): string {
  if (!date) return fallback;
  return `${new Date(date).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
