// Dates as the console prints them, one format on every page: "26 Nov 2026, 08:15 UTC". UTC, labelled, because
// most pages are rendered on the server, which does not know the reader's time zone, and a client component's
// HTML must match what the browser renders from it. English month names whatever the server's locale, for the
// same reason.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");

/** `26 Nov 2026, 08:15 UTC`, or `fallback` when there is no date. */
export function formatUtc(date: Date | string | null | undefined, fallback = "—"): string {
  if (!date) return fallback;
  const d = new Date(date);
  return (
    `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`
  );
}

/** `26 Nov 2026, 08:15:42 UTC`: where entries a few seconds apart must be told apart (the audit log). */
export function formatUtcSeconds(date: Date | string): string {
  const d = new Date(date);
  return formatUtc(d).replace(/ UTC$/, `:${two(d.getUTCSeconds())} UTC`);
}

/**
 * `just now`, `3 min ago`, `5 h ago`, `2 days ago`, then the absolute date past 30 days (a relative date that
 * far back is harder to place than the date). For "last used"-style columns, with the absolute in a tooltip.
 */
export function formatRelative(date: Date | string, now: Date = new Date()): string {
  const seconds = Math.round((now.getTime() - new Date(date).getTime()) / 1000);
  if (seconds < 0) return formatUtc(date);
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days <= 30) return days === 1 ? "yesterday" : `${days} days ago`;
  return formatUtc(date);
}

/** A count and its noun, singular for one: "1 operation", "2,400 operations" (regular plurals only). */
export function plural(count: number, word: string): string {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}

/** What a match's score says, for its tooltip (docs/api.md, "What a score means"). */
export const SCORE_MEANING =
  "How likely this memory is relevant, 0 to 1: of matches scoring about 0.5, about half were relevant";
