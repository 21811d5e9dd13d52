// ISO 8601 dates and date-times as the API accepts them, with patterns every JSON Schema client reads alike.
import { z } from "zod";

// zod's own date patterns say `\d`, which Python's `re` reads as any decimal digit of any script ("٢٠٢٦"):
// a client validating with it would send what the server refuses. These are the same patterns in ASCII.
const D = "[0-9]";
/** A calendar date, leap days included; year 0000 is none (PostgreSQL and JavaScript count from year 1). */
const LEAP_DAY = `(?:${D}${D}[2468][048]|${D}${D}[13579][26]|${D}${D}0[48]|[02468][048]00|[13579][26]00)-02-29`;
const OTHER_DAY =
  `${D}{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]${D}|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]${D}|30)|` +
  `02-(?:0[1-9]|1${D}|2[0-8]))`;
const DATE = `(?!0000)(?:${LEAP_DAY}|${OTHER_DAY})`;
const TIME = `(?:[01]${D}|2[0-3]):[0-5]${D}:[0-5]${D}(?:\\.${D}+)?`;
const OFFSET = `(?:Z|[+-](?:[01]${D}|2[0-3]):[0-5]${D})`;

/** "2026-05-07T13:56:00Z", "2026-05-07T15:56:00.5+02:00": a date-time with seconds and its offset (RFC 3339). */
export function isoDateTime(error: string) {
  return z.stringFormat("date-time", new RegExp(`^${DATE}T${TIME}${OFFSET}$`), { error });
}

/** "2026-05-07": a date (RFC 3339's full-date). */
export function isoDate(error: string) {
  return z.stringFormat("date", new RegExp(`^${DATE}$`), { error });
}
