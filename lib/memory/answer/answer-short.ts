// The extractive answerer's short answer: what the question asks for, taken from the sentence that answers
// it. People ask "when", "where", "who", "how many" wanting a date, a place, a person, a number — a quoted
// sentence of thirty words makes them look for it. Everything here is read from the sentence itself, so the
// short answer says only what its cited source says.

import { withAbsoluteDates } from "./relative-dates";

export type QuestionKind = "when" | "where" | "who" | "quantity" | "why" | "what";

/** What a question asks for, from its wh-word. */
export function questionKind(question: string, asksWhen: boolean): QuestionKind {
  if (asksWhen) return "when";
  if (/\bwhere\b/i.test(question)) return "where";
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

/** Whether a text states a time, relative ("yesterday") or not ("in 2022", "last June"). */
export function holdsDate(text: string, saidOn: string): boolean {
  return withAbsoluteDates(text, saidOn).resolved || EXPLICIT_DATE.test(text);
}

/**
 * The time a sentence gives: the first relative date it holds, resolved ("yesterday" said on 8 May 2023:
 * 7 May 2023); else a date it states ("in 2022", "last June"); else the day it was said.
 */
export function dateOf(resolvedDates: string[], text: string, saidOn: string): string {
  if (resolvedDates.length) return resolvedDates[0];
  const explicit = EXPLICIT_DATE.exec(text);
  if (explicit && !/^may$/i.test(explicit[0])) return explicit[0].replace(/^(in|since|of)\s+/i, "");
  return saidOn;
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

/** A time of day ("10:15", "4pm", "9.30 am"). */
const CLOCK_TIME = /\b\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b/i;

/** The time of day a sentence gives, for a question about when something recurs ("When is the stand-up?"). */
export function clockTimeIn(text: string): string | null {
  return CLOCK_TIME.exec(text)?.[0] ?? null;
}

/** A question about when something is or happens, now or as a rule ("When is …", "When does …"), not when it did. */
export const ASKS_WHEN_NOW = /^\s*when\s+(?:is|are|does|do)\b/i;
