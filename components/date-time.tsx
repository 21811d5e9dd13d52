// A date as the console shows it (components/format.ts): the absolute date, or a relative one ("3 min ago")
// with the absolute in its tooltip. Renders on the server and in the browser alike.
import { formatRelative, formatUtc, formatUtcSeconds } from "./format";

export function DateTime({
  value,
  empty = "—",
  relative = false,
  seconds = false,
}: {
  value: Date | string | null | undefined;
  empty?: string;
  /** "3 min ago", the absolute date in the tooltip. */
  relative?: boolean;
  /** The absolute date to the second. */
  seconds?: boolean;
}) {
  if (!value) return <span className="text-slate-500">{empty}</span>;
  const date = new Date(value);
  const absolute = seconds ? formatUtcSeconds(date) : formatUtc(date);
  return (
    // A relative date read on the server may have moved on by the time the browser renders it.
    <time dateTime={date.toISOString()} title={absolute} suppressHydrationWarning={relative}>
      {relative ? formatRelative(date) : absolute}
    </time>
  );
}
