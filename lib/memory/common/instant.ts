import { z } from "zod";
import { isoDate, isoDateTime } from "@/lib/validation/dates";

const INSTANT_MESSAGE = "must be an ISO 8601 date-time with a time zone (2026-05-07T13:56:00Z) or a date (2026-05-07)";

const YEARS_MESSAGE = "must fall within the years 1 to 9999 (UTC)";

/**
 * A point in time as ISO 8601: a date-time with its offset (a local time would be ambiguous), or a date (UTC).
 * Passed on as the UTC ISO string, so that SQL never reads it in the database server's time zone; years
 * outside 1–9999 (which PostgreSQL or JavaScript cannot write back) are refused.
 */
export const Instant = z
  // No `format` on the union itself: a date-only value would fail a client's check of "date-time".
  .union([isoDateTime(INSTANT_MESSAGE), isoDate(INSTANT_MESSAGE)], { error: INSTANT_MESSAGE })
  .refine((value) => !Number.isNaN(Date.parse(value)), INSTANT_MESSAGE)
  .refine((value) => {
    const year = new Date(value).getUTCFullYear();
    return year >= 1 && year <= 9999;
  }, YEARS_MESSAGE)
  .overwrite((value) => new Date(value).toISOString());
