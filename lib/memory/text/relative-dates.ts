import { dayOf } from "./source-text";

// A turn says "yesterday" or "last week" relative to the day it was said; an answer read later needs the day
// itself. Each phrase below is resolved against the turn's occurred_at (UTC) and the absolute date is written
// after it in parentheses, so that the quoted words stay the speaker's own.

const DAY_MS = 86_400_000;
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};
const MONTH = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", month: "long", year: "numeric" });
const WEEKDAY = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", weekday: "long" });

function shifted(day: Date, days: number): Date {
  return new Date(day.getTime() + days * DAY_MS);
}

function dayWithWeekday(day: Date): string {
  return `${WEEKDAY.format(day)} ${dayOf(day.toISOString())}`;
}

function monthShifted(day: Date, months: number): string {
  return MONTH.format(new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + months, 1)));
}

function count(word: string): number {
  return NUMBERS[word.toLowerCase()] ?? Number(word);
}

const NUMBER = `(\\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;
const WEEKDAY_NAMES = `(sunday|monday|tuesday|wednesday|thursday|friday|saturday)`;

/** Each relative phrase, and the absolute date it stands for on a given day. */
const RULES: { pattern: RegExp; resolve: (day: Date, match: RegExpExecArray) => string | null }[] = [
  { pattern: /\bthe day before yesterday\b/i, resolve: (day) => dayOf(shifted(day, -2).toISOString()) },
  { pattern: /\b(yesterday|last night)\b/i, resolve: (day) => dayOf(shifted(day, -1).toISOString()) },
  { pattern: /\btomorrow\b/i, resolve: (day) => dayOf(shifted(day, 1).toISOString()) },
  {
    pattern: /\b(today|tonight|this (morning|afternoon|evening))\b/i,
    resolve: (day) => dayOf(day.toISOString()),
  },
  {
    pattern: new RegExp(`\\b${NUMBER} days? ago\\b`, "i"),
    resolve: (day, m) => dayOf(shifted(day, -count(m[1])).toISOString()),
  },
  {
    pattern: new RegExp(`\\b(last|this past|next|this coming) ${WEEKDAY_NAMES}\\b`, "i"),
    resolve: (day, m) => {
      const target = WEEKDAYS.indexOf(m[2].toLowerCase());
      const today = day.getUTCDay();
      const forward = /next|coming/i.test(m[1]);
      const offset = forward ? (target - today + 7) % 7 || 7 : -((today - target + 7) % 7 || 7);
      return dayWithWeekday(shifted(day, offset));
    },
  },
  {
    pattern: /\b(last|next) (week|weekend)\b/i,
    resolve: (day, m) =>
      `the ${m[2].toLowerCase()} ${m[1].toLowerCase() === "last" ? "before" : "after"} ${dayOf(day.toISOString())}`,
  },
  {
    pattern: new RegExp(`\\b${NUMBER} (weeks?|weekends?) ago\\b`, "i"),
    resolve: (day, m) => `${count(m[1])} ${m[2].toLowerCase()} before ${dayOf(day.toISOString())}`,
  },
  { pattern: /\blast month\b/i, resolve: (day) => monthShifted(day, -1) },
  { pattern: /\bnext month\b/i, resolve: (day) => monthShifted(day, 1) },
  { pattern: /\bthis month\b/i, resolve: (day) => monthShifted(day, 0) },
  {
    pattern: new RegExp(`\\b${NUMBER} months? ago\\b`, "i"),
    resolve: (day, m) => monthShifted(day, -count(m[1])),
  },
  { pattern: /\blast year\b/i, resolve: (day) => String(day.getUTCFullYear() - 1) },
  { pattern: /\bnext year\b/i, resolve: (day) => String(day.getUTCFullYear() + 1) },
  { pattern: /\bthis year\b/i, resolve: (day) => String(day.getUTCFullYear()) },
  {
    pattern: new RegExp(`\\b${NUMBER} years? ago\\b`, "i"),
    resolve: (day, m) => String(day.getUTCFullYear() - count(m[1])),
  },
];

/**
 * The text with each relative date it holds followed by the absolute date, resolved against the day the
 * text was said: `I went yesterday (7 May 2023)`. `resolved` tells whether any was; `dates` are the absolute
 * dates in the text's order.
 */
export function withAbsoluteDates(
  text: string,
  occurredAt: string,
): { text: string; resolved: boolean; dates: string[] } {
  const day = new Date(occurredAt);
  if (Number.isNaN(day.getTime())) return { text, resolved: false, dates: [] };
  // Resolved left to right over what is left of the text, so an earlier rule's output is never matched again.
  const found: { start: number; end: number; date: string }[] = [];
  for (const rule of RULES) {
    const pattern = new RegExp(rule.pattern.source, "gi");
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      const start = m.index;
      const end = start + m[0].length;
      if (found.some((f) => start < f.end && end > f.start)) continue;
      const date = rule.resolve(day, m);
      if (date) found.push({ start, end, date });
    }
  }
  if (found.length === 0) return { text, resolved: false, dates: [] };
  let out = "";
  let at = 0;
  for (const f of found.sort((a, b) => a.start - b.start)) {
    out += `${text.slice(at, f.end)} (${f.date})`;
    at = f.end;
  }
  return { text: out + text.slice(at), resolved: true, dates: found.map((f) => f.date) };
}
