// The extractive answerer's short answer: what the question asks for, taken from the sentence that answers
// it. People ask "when", "where", "who", "how many" wanting a date, a place, a person, a number — a quoted
// sentence of thirty words makes them look for it. Everything here is read from the sentence itself, so the
// short answer says only what its cited source says.

import { withAbsoluteDates } from "./relative-dates";

export type QuestionKind = "when" | "where" | "who" | "quantity" | "why" | "what";

/** What a question asks for, from its wh-word. */
/** "Which city …", "What country …": a where-question without "where". */
const PLACE_ASKED =
  /\b(?:what|which)\s+(?:city|town|village|country|state|province|region|place|street|neighbou?rhood|island|continent)\b/i;

export function questionKind(question: string, asksWhen: boolean): QuestionKind {
  if (asksWhen) return "when";
  if (/\bwhere\b/i.test(question) || PLACE_ASKED.test(question)) return "where";
  if (/\bwho(m|se)?\b/i.test(question)) return "who";
  if (/\bhow\s+(many|much|long|old|often|far)\b/i.test(question)) return "quantity";
  if (/\bwhy\b/i.test(question)) return "why";
  return "what";
}

/**
 * The clauses of a sentence: cut at commas, semicolons, dashes, a shared photo's caption, and before "but",
 * "because", "since", or "and" followed by a new subject ("… yesterday and it was so powerful"). A question
 * asking why keeps "because" and "since" with their clause: the reason is the answer.
 */
export const LEADING_CONNECTIVE = /^(?:and|but|so|because|since)\s+/i;

export function clausesOf(sentence: string, kind: QuestionKind): string[] {
  const joiners = kind === "why" ? "but" : "but|because|since";
  const newSubject = "and\\s+(?:i|we|he|she|they|it|you|my|our|that|this)\\b";
  const cut = new RegExp(
    `\\s*(?:[,;:]\\s+|\\s[-–—]+\\s|\\s(?=\\[)|\\s(?=(?:${joiners})\\s)|\\s(?=${newSubject}))`,
    "i",
  );
  // A shared photo's caption is a clause of its own; its label ("shared a photo") says nothing.
  return sentence
    .replace(/\[shared (?:a|an) (?:photo|image|picture)\s*:\s*/gi, "[")
    .split(cut)
    .map((c) => c.replace(/^\[|\]$/g, "").trim())
    .map((c) => c.replace(/[.!?]+["'”’)\]]*$/, "").trim())
    .filter((c) => /[\p{L}\p{N}]/u.test(c));
}

const MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december";
const EXPLICIT_DATE = new RegExp(
  `\\b(?:(?:\\d{1,2}\\s+)?(?:${MONTHS})(?:\\s+\\d{1,2}(?:st|nd|rd|th)?)?,?(?:\\s+\\d{4})?` +
    `|(?:in|since|of)\\s+\\d{4})\\b`,
  "i",
);

/** A question's words, lower-cased: what a place or a person in the answer must not be. */
export function questionWordsOf(query: string): Set<string> {
  return new Set(
    query
      .toLowerCase()
      .split(/[^\p{L}\p{N}'’-]+/u)
      .filter(Boolean),
  );
}

/**
 * Whether a text holds what a question of this kind asks for: a time for when, a place for where, a person other
 * than those the question names for who, a number for how many, much, long, old, often or far; false for what and
 * why, whose answer has no form to check.
 * `saidOn` is when the text was said (ISO 8601), for a relative date ("yesterday").
 */
export function holdsAnswerTo(kind: QuestionKind, text: string, questionWords: Set<string>, saidOn: string): boolean {
  if (kind === "when") return holdsDate(text, saidOn);
  if (kind === "where") return placeIn(text, questionWords) !== null;
  // A year is when, not how many ("moved in 2023" answers no "how many kids").
  if (kind === "quantity") return quantityIn(text.replace(/\b(?:19|20)\d\d\b/g, " ")) !== null;
  return kind === "who" && personIn(text, questionWords) !== null;
}

/** Whether a text states a time, relative ("yesterday") or not ("in 2022", "last June"). */
export function holdsDate(text: string, saidOn: string): boolean {
  return withAbsoluteDates(text, saidOn).resolved || EXPLICIT_DATE.test(text) || timePhraseIn(text) !== null;
}

/** A date the text states ("in 2022", "21 January"), without its preposition; "May" alone is a verb first. */
function statedDateIn(text: string): string | null {
  const explicit = EXPLICIT_DATE.exec(text);
  return explicit && !/^may$/i.test(explicit[0]) ? explicit[0].replace(/^(in|since|of)\s+/i, "") : null;
}

const WEEKDAY_WORD = "(?:mon|tues|wednes|thurs|fri|satur|sun)day";
const DAY_PART = "(?:morning|afternoon|evening|night)";
const ZONE_NAMES = "CES?T|E[SD]T|C[SD]T|M[SD]T|P[SD]T|BST|IST|JST|AES?T|AEDT";
const TIME_ZONE = `(?:\\s?(?:UTC|GMT)(?:[+-]\\d{1,2})?|\\s(?:${ZONE_NAMES})|\\s(?:local|your) time)`;
const CLOCK = `(?:\\d{1,2}(?:[:.]\\d{2})?\\s?(?:am|pm)|\\d{1,2}:\\d{2}|noon|midnight)${TIME_ZONE}?`;
const DATE = `(?:\\d{1,2}(?:st|nd|rd|th)?\\s+(?:${MONTHS})|(?:${MONTHS})(?:\\s+\\d{1,2}(?:st|nd|rd|th)?)?)`;
/** What a range may end with: a time, a day or a date, never a bare number ("from 2 to 3 teams" is no time). */
const POINT = `(?:${CLOCK}|${WEEKDAY_WORD}s?(?:\\s+${DAY_PART}s?)?|${DATE})`;
/** What it may start with: the same, or the day alone when the end names the month ("from 4 to 6 June"). */
const START_POINT = `(?:${POINT}|\\d{1,2}(?:st|nd|rd|th)?)`;

const PERIOD = "day|night|morning|afternoon|evening|week|weekday|weekend|fortnight|month|year|quarter|hour|minute";

/**
 * The phrases that say when something is, as said: a recurrence ("every Sunday", "on Tuesday afternoons",
 * "nightly"), a time of day ("at 03:00 UTC"), a range ("from 4 to 6 June", "between 9am and 5pm").
 */
const TIME_PHRASES = [
  `(?:every|each)\\s+(?:other\\s+)?(?:\\d+\\s+|few\\s+)?(?:${WEEKDAY_WORD}|${PERIOD})s?(?:\\s+${DAY_PART})?`,
  "(?:daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually|hourly)",
  `(?:on\\s+)?(?:${WEEKDAY_WORD}s(?:\\s+${DAY_PART}s)?|weekdays|weekends|(?:the\\s+)?weekend)`,
  `(?:on\\s+)?${WEEKDAY_WORD}\\s+${DAY_PART}s`,
  `(?:from|between)\\s+${START_POINT}\\s+(?:to|and|until|till|through)\\s+${POINT}`,
  `(?:at|around|by|before|after|until)\\s+${CLOCK}`,
  CLOCK,
].map((source) => new RegExp(`\\b${source}(?![\\p{L}\\p{N}])`, "giu"));

/**
 * When the text says something is or happens, as the text says it: its time phrases (TIME_PHRASES) that follow
 * one another, joined ("every Sunday at 03:00 UTC", "from 01:00 to 02:30 every night"); null when it holds none.
 * A lone "at 3pm" loses its "at".
 */
export function timePhraseIn(text: string): string | null {
  const spans: [number, number][] = [];
  for (const pattern of TIME_PHRASES) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (!spans.some(([s, e]) => start < e && end > s)) spans.push([start, end]);
    }
  }
  if (spans.length === 0) return null;
  spans.sort((a, b) => a[0] - b[0]);
  const start = spans[0][0];
  let end = spans[0][1];
  for (const [s, e] of spans.slice(1)) {
    if (!/^,?\s*(?:on\s+|and\s+)?$/i.test(text.slice(end, s))) break;
    end = e;
  }
  const phrase = text.slice(start, end);
  return spans.length === 1 || end === spans[0][1] ? phrase.replace(/^(?:at|around)\s+/i, "") : phrase;
}

/**
 * The time a sentence gives for a when-question, as the sentence says it: the day a relative date stands for
 * ("yesterday" said on 8 May 2023: 7 May 2023); a recurrence, time of day or range ("every Sunday at 03:00
 * UTC"), which are never turned into one date; a date it states ("in 2022"). A question about when something is
 * or happens as a rule ("When is …", `now`) takes the recurrence first, and gets no date the text does not give;
 * one about when something happened falls back on the day it was said (`saidOn`).
 */
export function whenIn(resolvedDates: string[], text: string, saidOn: string, now: boolean): string | null {
  if (now) return timePhraseIn(text) ?? resolvedDates[0] ?? statedDateIn(text);
  return resolvedDates[0] ?? timePhraseIn(text) ?? statedDateIn(text) ?? saidOn;
}

// A capitalized word that is not a determiner or a pronoun starting a phrase ("to A charity", "at My place").
const PROPER = `(?!(?:A|An|The|This|That|My|Our|Your|His|Her|Their|I|It|We)\\b)[A-Z][\\p{L}'’.-]*`;
const PLACE = new RegExp(
  `\\b(?:in|at|to|from|near|visit(?:ed|ing)?|around)\\s+((?:the\\s+)?${PROPER}(?:\\s+(?:of\\s+|de\\s+)?${PROPER})*)`,
  "u",
);
const COMMON_PLACE = /\b(?:in|at|to|from|near|around)\s+((?:the|a|my|our|his|her)\s+(?:[a-z]+\s+){0,2}?[a-z]+)\b/;

/** A place the text names after in/at/to/from ("to Portugal", "at the beach"), not one of the question's words. */
export function placeIn(text: string, questionWords: Set<string>): string | null {
  const proper = PLACE.exec(text);
  if (proper && !questionWords.has(proper[1].toLowerCase()) && !/^I\b/.test(proper[1])) return proper[1];
  const common = COMMON_PLACE.exec(text);
  return common ? common[1] : null;
}

const NON_NAMES = new Set([
  "i",
  "i'm",
  "i've",
  "i'd",
  "i'll",
  "the",
  "a",
  "my",
  "we",
  "it",
  "that",
  "this",
  "hey",
  "oh",
]);

/** A person the text names (capitalized words not starting the text), not one the question names already. */
export function personIn(text: string, questionWords: Set<string>): string | null {
  const words = text.split(/\s+/);
  for (let i = 1; i < words.length; i++) {
    const word = words[i].replace(/[^\p{L}'’-]/gu, "");
    // A capitalized word after a sentence's end starts a sentence; it is no name for being capitalized.
    if (/[.!?:]["'”’)\]]*$/.test(words[i - 1])) continue;
    if (!/^\p{Lu}/u.test(word) || NON_NAMES.has(word.toLowerCase()) || questionWords.has(word.toLowerCase())) continue;
    const name = [word];
    for (let j = i + 1; j < words.length && /^\p{Lu}/u.test(words[j]); j++)
      name.push(words[j].replace(/[^\p{L}'’-]/gu, ""));
    // A name that starts the text ("Elena Brooks is …") is found at its second word: its first goes with it.
    const first = words[0].replace(/[^\p{L}'’-]/gu, "");
    if (
      i === 1 &&
      /^\p{Lu}/u.test(first) &&
      !NON_NAMES.has(first.toLowerCase()) &&
      !questionWords.has(first.toLowerCase())
    )
      name.unshift(first);
    return name.join(" ");
  }
  return null;
}

const QUANTITY = new RegExp(
  "\\b(?:\\d+(?:[.,]\\d+)?|a few|a couple(?: of)?|several|two|three|four|five|six|seven|eight|nine|ten|" +
    "eleven|twelve|twenty|thirty|fifty|hundred|once|twice)\\b(?:\\s+[a-z]+)?",
  "i",
);

/** A number and what it counts ("three kids", "10 years"). */
export function quantityIn(text: string): string | null {
  // Dates are not counts: "(2 May 2023)" resolved from "yesterday", "on 21 January".
  const undated = text.replace(/\([^)]*\)/g, " ").replace(new RegExp(`\\b\\d{1,2}\\s+(?:${MONTHS})\\b`, "gi"), " ");
  const match = QUANTITY.exec(undated);
  return match ? match[0] : null;
}

/** A question about when something is or happens, now or as a rule ("When is …", "When does …"), not when it did. */
export const ASKS_WHEN_NOW = /^\s*when\s+(?:is|are|does|do)\b/i;
